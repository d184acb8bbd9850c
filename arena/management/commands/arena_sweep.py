from django.core.management.base import BaseCommand

from arena.services import interrogations_sweep


class Command(BaseCommand):
    help = (
        "Close every running interrogation past its deadline and finish what a restart left undone (a contest "
        "round whose last meeting had ended): run at start-up; Celery beat runs it every 5 s."
    )

    def handle(self, *args, **options):
        closed = interrogations_sweep()
        self.stdout.write(f"closed {closed} interrogation(s) past their deadline")
