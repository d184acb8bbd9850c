"""Rounds end by themselves (``Round.ended_at``; ``Contest.rounds_follow_on``), the ``compact`` format,
and an entry's people as rows (name, e-mail, affiliation) with its receipt time set by the server."""

import django.utils.timezone
from django.db import migrations, models
from django.db.models import Max


def forwards(apps, schema_editor):
    """Rounds ended before: their end is their last meeting's; a person given by name becomes a row."""
    Round = apps.get_model("loebner", "Round")
    ContestEntry = apps.get_model("loebner", "ContestEntry")
    for round_ in Round.objects.filter(status="ended", ended_at__isnull=True):
        last = round_.meetings.aggregate(last=Max("interrogation__ended_at"))["last"]
        round_.ended_at = last or round_.started_at
        round_.save(update_fields=["ended_at"])
    for item in ContestEntry.objects.all().only("people"):
        people = item.people if isinstance(item.people, list) else []
        rows = [{"name": p, "email": "", "affiliation": ""} if isinstance(p, str) else p for p in people]
        if rows != item.people:
            item.people = rows
            item.save(update_fields=["people"])


def backwards(apps, schema_editor):
    ContestEntry = apps.get_model("loebner", "ContestEntry")
    for item in ContestEntry.objects.all().only("people"):
        names = [p.get("name", "") if isinstance(p, dict) else p for p in item.people or []]
        if names != item.people:
            item.people = names
            item.save(update_fields=["people"])


class Migration(migrations.Migration):
    dependencies = [
        ("loebner", "0003_spectator_markets_tie_winner"),
    ]

    operations = [
        migrations.AddField(
            model_name="contest",
            name="rounds_follow_on",
            field=models.BooleanField(
                default=False, help_text="Each round starts by itself as soon as the one before has ended."
            ),
        ),
        migrations.AddField(
            model_name="round",
            name="ended_at",
            field=models.DateTimeField(
                blank=True,
                help_text="When its last meeting ended (or its time ran out): the round's end.",
                null=True,
            ),
        ),
        migrations.AlterField(
            model_name="contest",
            name="format_name",
            field=models.CharField(
                choices=[
                    ("2009-rules", "2009-rules"),
                    ("2009-as-run", "2009-as-run"),
                    ("2012", "2012"),
                    ("aisb", "aisb"),
                    ("generic", "generic"),
                    ("compact", "compact"),
                ],
                help_text="Generic and compact: as many judges and confederates as finalists. Building the "
                "schedule shows what each format becomes.",
                max_length=30,
            ),
        ),
        migrations.AlterField(
            model_name="contestentry",
            name="people",
            field=models.JSONField(
                blank=True,
                default=list,
                help_text='Everyone affiliated with the entry: [{"name", "email", "affiliation"}, …]; a person '
                "may be affiliated with one entry of the contest only.",
            ),
        ),
        migrations.AlterField(
            model_name="contestentry",
            name="received_at",
            field=models.DateTimeField(
                db_index=True,
                default=django.utils.timezone.now,
                editable=False,
                help_text="Recorded by the server when the entry arrives.",
            ),
        ),
        migrations.RunPython(forwards, backwards),
    ]
