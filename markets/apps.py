from django.apps import AppConfig


class MarketsConfig(AppConfig):
    name = "markets"
    verbose_name = "Turing Trade: prediction-market games"

    def ready(self):
        from core.metrics import snapshot_register

        snapshot_register("arena_trade_games_live", "Turing Trade games running", _live_games)


def _live_games():
    from markets.models import Game

    return [({}, Game.objects.filter(status=Game.Status.RUNNING).count())]
