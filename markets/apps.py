from django.apps import AppConfig


class MarketsConfig(AppConfig):
    name = "markets"
    verbose_name = "Turing Trade: prediction-market games"
