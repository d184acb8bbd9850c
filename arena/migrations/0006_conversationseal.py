import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("arena", "0005_enginecall_subject"),
    ]

    operations = [
        migrations.CreateModel(
            name="ConversationSeal",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("message_count", models.PositiveIntegerField()),
                (
                    "head_hash",
                    models.CharField(help_text="The last message's hash (the genesis hash if none).", max_length=64),
                ),
                ("ended_at", models.DateTimeField(blank=True, null=True)),
                (
                    "key_id",
                    models.CharField(help_text="First 16 hex digits of the SHA-256 of the public key.", max_length=16),
                ),
                ("signature", models.CharField(help_text="Ed25519, base64.", max_length=88)),
                ("version", models.PositiveSmallIntegerField(default=1)),
                ("signed_at", models.DateTimeField(auto_now_add=True)),
                (
                    "conversation",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE, related_name="seal", to="arena.conversation"
                    ),
                ),
            ],
        ),
    ]
