from django.apps import AppConfig


class LambdaStarConfig(AppConfig):
    name = "lambdastar"
    verbose_name = "Λ* experiments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from core.metrics import queue_register, snapshot_register
        from lambdastar.tasks import QUEUE

        queue_register(QUEUE)
        snapshot_register("arena_lambdastar_experiments_active", "Λ* experiments queued or running", _active)


def _active():
    from lambdastar.models import Experiment

    return [({}, Experiment.objects.filter(status__in=Experiment.ACTIVE).count())]
