"""Loebner Prize contests: entries, qualifying, Latin-square rounds, paired comparisons, scoring."""
from django.apps import AppConfig


def _meeting_market(interrogation):
    """Every meeting of a contest gets a crowd market, its spectators the default delay behind the judge."""
    from markets.policies import default_delay_s
    from tournaments.loebner.models import Meeting

    return {"delay_s": default_delay_s()} if Meeting.objects.filter(interrogation=interrogation).exists() else None


class LoebnerConfig(AppConfig):
    name = "tournaments.loebner"
    label = "loebner"
    verbose_name = "Loebner Prize contests"

    def ready(self):
        from arena.results import source_register
        from tournaments.loebner.results import LoebnerResults

        source_register(LoebnerResults())  # the contests' verdicts on the arena's results pages, as "loebner"

        from markets.policies import xmarket_policy_register

        xmarket_policy_register(_meeting_market)
