from django.apps import AppConfig


class StudiesConfig(AppConfig):
    name = "studies"
    verbose_name = "Online studies"
