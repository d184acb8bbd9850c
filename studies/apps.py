from django.apps import AppConfig


def _game_market(interrogation):
    """A study's games get crowd markets only where its configuration says `spectator_markets: true`."""
    from studies.models import Game

    game = Game.objects.filter(interrogation=interrogation).select_related("study").first()
    if game is None or game.study.config.get("spectator_markets") is not True:
        return None
    return {"delay_s": float(game.study.config.get("spectator_delay_s", 60))}


class StudiesConfig(AppConfig):
    name = "studies"
    verbose_name = "Online studies"

    def ready(self):
        from arena.results import source_register
        from studies.results import StudyResults

        source_register(StudyResults())  # live games and transcript verdicts on the arena's results pages

        from markets.policies import xmarket_policy_register

        xmarket_policy_register(_game_market)
