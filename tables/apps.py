from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = "Turing the Tables"

    def ready(self):
        from arena.results import source_register
        from tables.results import TablesResults

        source_register(TablesResults())  # every accepted peer vote on the arena's results pages, as "tables"
