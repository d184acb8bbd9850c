from django.apps import AppConfig


class TutorialConfig(AppConfig):
    name = "bench.tutorial"
    label = "bench_tutorial"
    default_auto_field = "django.db.models.BigAutoField"
