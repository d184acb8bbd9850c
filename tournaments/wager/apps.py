from django.apps import AppConfig


class WagerConfig(AppConfig):
    name = "tournaments.wager"
    label = "wager"
    verbose_name = "Long Now wager sessions"
