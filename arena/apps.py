from django.apps import AppConfig
from django.db.models.signals import post_migrate


class ArenaConfig(AppConfig):
    name = "arena"
    verbose_name = "Arena: interrogations"

    def ready(self):
        from arena import checks  # noqa: F401  (registers the system checks)
        from arena.setup import ensure_role_groups

        post_migrate.connect(ensure_role_groups, sender=self)
