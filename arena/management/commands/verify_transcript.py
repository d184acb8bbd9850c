import uuid

from django.core.management.base import BaseCommand, CommandError

from core.hashchain import chain_verify
from arena.models import Conversation


class Command(BaseCommand):
    help = "Check a conversation's SHA-256 message chain; exits 1 if the transcript was altered."

    def add_arguments(self, parser):
        parser.add_argument("conversation", help="conversation id (number) or public id (UUID)")

    def handle(self, *args, conversation, **options):
        try:
            lookup = {"pk": int(conversation)} if conversation.isdigit() else {"public_id": uuid.UUID(conversation)}
            convo = Conversation.objects.get(**lookup)
        except (ValueError, Conversation.DoesNotExist):
            raise CommandError(f"No conversation {conversation!r}.") from None
        report = chain_verify(convo.public_id, convo.messages.order_by("seq"))
        if report.ok:
            self.stdout.write(self.style.SUCCESS(f"OK: conversation {convo.pk}, {report.checked} messages, chain intact."))
            return
        self.stderr.write(
            self.style.ERROR(
                f"ALTERED: conversation {convo.pk}, message #{report.first_bad_seq}: {report.problem} "
                f"({report.checked} messages verified before it)."
            )
        )
        raise SystemExit(1)
