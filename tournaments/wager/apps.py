"""Long Now wager sessions: committee, trials of long interviews, verdicts, ranks, verifiable report."""
from django.apps import AppConfig


def _interview_verdict_elsewhere(interrogation_id: int) -> bool:
    from tournaments.wager.models import Interview

    return Interview.objects.filter(interrogation_id=interrogation_id).exists()


class WagerConfig(AppConfig):
    name = "tournaments.wager"
    label = "wager"
    verbose_name = "Long Now wager sessions"

    def ready(self):
        # A wager interview's verdict is given for the whole trial at once, on the session's page: the arena
        # console must offer none (a per-interview verdict would reveal the candidate).
        from arena.services.verdicts import verdict_elsewhere_register

        verdict_elsewhere_register(_interview_verdict_elsewhere)
