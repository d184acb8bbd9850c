"""A spectator feed records the last message pushed to its spectators in each conversation, so that a
message is pushed once whether its own timer or the sweep gets there first. Feeds that exist already
count every message stored so far as pushed."""

from django.db import migrations, models
from django.db.models import Max


def mark_stored_as_released(apps, schema_editor):
    SpectatorFeed = apps.get_model("arena", "SpectatorFeed")
    Message = apps.get_model("arena", "Message")
    for feed in SpectatorFeed.objects.all():
        last = (
            Message.objects.filter(conversation__interrogation_id=feed.interrogation_id)
            .values("conversation_id")
            .annotate(seq=Max("seq"))
        )
        feed.released = {str(row["conversation_id"]): row["seq"] for row in last}
        feed.save(update_fields=["released"])


class Migration(migrations.Migration):
    dependencies = [
        ("arena", "0011_message_append_engine"),
    ]

    operations = [
        migrations.AddField(
            model_name="spectatorfeed",
            name="released",
            field=models.JSONField(
                blank=True,
                default=dict,
                help_text="The last message pushed to the spectators, per conversation: {conversation id: seq}.",
            ),
        ),
        migrations.RunPython(mark_stored_as_released, migrations.RunPython.noop),
    ]
