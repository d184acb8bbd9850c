from django.apps import AppConfig


class StudiesConfig(AppConfig):
    name = "studies"
    verbose_name = "Online studies"

    def ready(self):
        from arena.results import source_register
        from studies.results import StudyResults

        source_register(StudyResults())  # live games and transcript verdicts on the arena's results pages
