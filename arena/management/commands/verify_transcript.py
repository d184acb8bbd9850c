from django.core.management.base import BaseCommand, CommandError

from arena.selectors import interrogations


class Command(BaseCommand):
    help = (
        "Check a transcript: recompute each conversation's SHA-256 message chain and check it against the seal "
        "signed when its interrogation ended (message count, head hash, Ed25519 signature). Exits 1 if "
        "anything was altered, cut, or cannot be proven."
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
        failed = False
        for conversation in conversations:
            report = interrogations.conversation_verify(conversation=conversation)
            line = f"{report.verdict}: conversation {conversation.pk} ({conversation.side}), {report.describe()}."
            if report.ok:
                self.stdout.write(self.style.SUCCESS(line))
            else:
                failed = True
                self.stderr.write(self.style.ERROR(line))
        if failed:
            raise SystemExit(1)
