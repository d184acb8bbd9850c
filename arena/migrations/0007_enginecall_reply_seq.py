from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("arena", "0006_conversationseal"),
    ]

    operations = [
        migrations.AddField(
            model_name="enginecall",
            name="reply_seq",
            field=models.PositiveIntegerField(
                blank=True,
                help_text="the seq of the witness message that delivered the reply to trigger_seq (set once: a redelivered or re-asked task finds it and delivers nothing)",
                null=True,
            ),
        ),
    ]
