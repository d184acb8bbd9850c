from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("lambdastar", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="run",
            name="chunk_episodes",
            field=models.JSONField(
                blank=True, default=dict, help_text="Episodes per chunk of each agent type, fixed at launch."
            ),
        ),
    ]
