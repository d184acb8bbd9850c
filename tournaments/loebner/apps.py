"""Loebner Prize contests: entries, qualifying, Latin-square rounds, paired comparisons, scoring."""
from django.apps import AppConfig


class LoebnerConfig(AppConfig):
    name = "tournaments.loebner"
    label = "loebner"
    verbose_name = "Loebner Prize contests"

    def ready(self):
        from arena.results import source_register
        from tournaments.loebner.results import LoebnerResults

        source_register(LoebnerResults())  # the contests' verdicts on the arena's results pages, as "loebner"
