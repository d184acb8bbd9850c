from django.apps import AppConfig


class LambdaStarConfig(AppConfig):
    name = "lambdastar"
    verbose_name = "Λ* experiments"
    default_auto_field = "django.db.models.BigAutoField"
