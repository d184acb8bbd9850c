from django.apps import AppConfig


class LoebnerConfig(AppConfig):
    name = "tournaments.loebner"
    label = "loebner"
    verbose_name = "Loebner Prize contests"
