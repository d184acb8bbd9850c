from django.core.management.base import BaseCommand, CommandError

from arena.selectors import interrogations


class Command(BaseCommand):
    help = (
        "Check a transcript: recompute each conversation's SHA-256 message chain and check it against the seal "
        "signed when its interrogation ended (message count, head hash, Ed25519 signature), then its whole "
        "record (every conversation's side, witness kind, count and head, the metadata, the verdict) against "
        "the record's seal. Exits 1 if anything was altered, cut, or cannot be proven."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "transcript",
            help="the public id in a transcript's URL (/transcripts/<id>/: every conversation of that interrogation), "
            "that URL itself, a conversation's public id, or a conversation id (number)",
        )

    def handle(self, *args, transcript, **options):
        conversations = interrogations.transcript_conversations(reference=transcript)
        if not conversations:
            raise CommandError(f"No conversation {transcript!r}.")
        lines = []
        for conversation in conversations:
            report = interrogations.conversation_verify(conversation=conversation)
            lines.append((report, f"conversation {conversation.pk} ({conversation.side})"))
        for interrogation in {c.interrogation_id: c.interrogation for c in conversations}.values():
            report = interrogations.record_verify(interrogation=interrogation)
            if report is not None:
                lines.append((report, f"whole record of interrogation {interrogation.public_id}"))
        for report, what in lines:
            line = f"{report.verdict}: {what}, {report.describe()}."
            if report.ok:
                self.stdout.write(self.style.SUCCESS(line))
            else:
                self.stderr.write(self.style.ERROR(line))
        if not all(report.ok for report, _ in lines):
            raise SystemExit(1)
