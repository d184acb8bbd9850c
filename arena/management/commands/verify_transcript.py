from django.core.management.base import BaseCommand, CommandError

from arena.selectors import interrogations


class Command(BaseCommand):
    help = (
        "Check a transcript: recompute each conversation's SHA-256 message chain and check it against the seal "
        "signed when its interrogation ended (message count, head hash, Ed25519 signature). Exits 1 if "
        "anything was altered, cut, or cannot be proven. With --all, every ended interrogation's conversations "
        "(after restoring a backup, say)."
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
            help="every conversation of every ended interrogation: prints those that do not verify, then the count",
        )

    def handle(self, *args, transcript=None, all=False, **options):
        if all == (transcript is not None):
            raise CommandError("Name one transcript, or give --all.")
        conversations = (
            interrogations.ended_conversations()
            if all
            else interrogations.transcript_conversations(reference=transcript)
        )
        if not conversations and not all:
            raise CommandError(f"No conversation {transcript!r}.")
        verified = 0
        for conversation in conversations:
            report = interrogations.conversation_verify(conversation=conversation)
            line = f"{report.verdict}: conversation {conversation.pk} ({conversation.side}), {report.describe()}."
            if report.ok:
                verified += 1
                if not all:
                    self.stdout.write(self.style.SUCCESS(line))
            else:
                self.stderr.write(self.style.ERROR(line))
        if all:
            self.stdout.write(f"{verified} of {len(conversations)} ended conversations verify.")
        if verified < len(conversations):
            raise SystemExit(1)
