from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = "Turing the Tables"

    def ready(self):
        from core.metrics import snapshot_register

        snapshot_register("arena_tables_games_live", "Turing the Tables games running", _live_games)
        from arena.results import source_register
        from tables.results import TablesResults

        source_register(TablesResults())  # every accepted peer vote on the arena's results pages, as "tables"


def _live_games():
    from tables.models import Game

    return [({}, Game.objects.filter(status=Game.Status.RUNNING).count())]
