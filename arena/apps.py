from django.apps import AppConfig
from django.db.models.signals import post_migrate


class ArenaConfig(AppConfig):
    name = "arena"
    verbose_name = "Arena: interrogations"

    def ready(self):
        from arena import metrics

        metrics.register()  # its gauges on /metrics
        from arena import checks  # noqa: F401  registers the system checks
        from arena.results import source_register
        from arena.results.arena_source import ArenaResults
        from arena.setup import ensure_role_groups

        source_register(ArenaResults())  # the arena's own interrogations: "three-party", "two-party"

        from arena.admin_people import people_pickers_install

        people_pickers_install()  # every app's admin is loaded (django.contrib.admin is ready before us)

        # after the arena's migrations and each format app's (whose permissions Django has just made), so
        # the organiser group holds every format's permissions however the apps are migrated
        post_migrate.connect(ensure_role_groups, dispatch_uid="arena-role-groups")
