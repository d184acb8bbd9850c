from django.apps import AppConfig


class LppConfig(AppConfig):
    name = "lpp"
    verbose_name = "LPP: Loebner Prize Protocol logs and bridge"
    default_auto_field = "django.db.models.BigAutoField"
