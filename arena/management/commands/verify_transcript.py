from django.core.management.base import BaseCommand, CommandError

from arena.selectors import interrogations


class Command(BaseCommand):
    help = (
        "Check a transcript: recompute each conversation's SHA-256 message chain and check it against the seal "
        "signed when its interrogation ended (message count, head hash, Ed25519 signature), then its whole "
        "record (every conversation's side, witness kind, count and head, the metadata, the verdict) against "
        "the record's seal. Exits 1 if anything was altered, cut, or cannot be proven. With --all, every ended "
        "interrogation (after restoring a backup, say)."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "transcript",
            nargs="?",
            help="the public id in a transcript's URL (/transcripts/<id>/: every conversation of that interrogation), "
            "that URL itself, a conversation's public id, or a conversation id (number)",
        )
        parser.add_argument(
            "--all",
            action="store_true",
            help="every ended interrogation's conversations and records: prints those that do not verify, then "
            "the counts",
        )

    def handle(self, *args, transcript=None, **options):
        every = options["all"]
        if every == (transcript is not None):
            raise CommandError("Name one transcript, or give --all.")
        if every:
            conversations = interrogations.ended_conversations()
        else:
            conversations = interrogations.transcript_conversations(reference=transcript)
        if not conversations and not every:
            raise CommandError(f"No conversation {transcript!r}.")
        chains, records = [], []
        for conversation in conversations:
            report = interrogations.conversation_verify(conversation=conversation)
            chains.append((report, f"conversation {conversation.pk} ({conversation.side})"))
        for interrogation in {c.interrogation_id: c.interrogation for c in conversations}.values():
            report = interrogations.record_verify(interrogation=interrogation)
            if report is not None:
                records.append((report, f"whole record of interrogation {interrogation.public_id}"))
        for report, what in chains + records:
            line = f"{report.verdict}: {what}, {report.describe()}."
            if not report.ok:
                self.stderr.write(self.style.ERROR(line))
            elif not every:
                self.stdout.write(self.style.SUCCESS(line))
        if every:
            verified = sum(report.ok for report, _ in chains)
            self.stdout.write(f"{verified} of {len(chains)} ended conversations verify.")
            self.stdout.write(f"{sum(report.ok for report, _ in records)} of {len(records)} whole records verify.")
        if not all(report.ok for report, _ in chains + records):
            raise SystemExit(1)
