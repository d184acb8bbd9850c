"""Read-only REST endpoints: experiments, runs, aggregates, per-episode results (paginated).

Mounted at /api/lambdastar/. Each user sees their own experiments and every finished one; staff see all
(lambdastar.selectors.experiments_visible, as the pages).
Filters: ``?experiment=<id>`` on runs, aggregates and episodes; ``?run=<id>`` on aggregates and episodes;
``?page_size=`` on episodes. A numeric parameter that is not a whole number within its bounds answers 400
(:func:`core.params.number_param`).
"""

from django.urls import include, path
from rest_framework import pagination, routers, serializers, viewsets
from rest_framework.exceptions import ValidationError

from core.errors import InvalidInput
from core.params import number_param
from lambdastar import selectors
from lambdastar.models import Aggregate, ChunkResult, Experiment, Run


class ExperimentSerializer(serializers.ModelSerializer):
    owner = serializers.CharField(source="owner.get_username", read_only=True)

    class Meta:
        model = Experiment
        fields = [
            "id",
            "name",
            "owner",
            "status",
            "seed",
            "configuration",
            "total_episodes",
            "error",
            "cloned_from",
            "created_at",
            "queued_at",
            "started_at",
            "finished_at",
        ]


class RunSerializer(serializers.ModelSerializer):
    class Meta:
        model = Run
        fields = [
            "id",
            "experiment",
            "index",
            "factors",
            "engine_config",
            "width",
            "height",
            "iterations",
            "agents",
            "observation_range",
            "complexity_min",
            "complexity_max",
            "coordination",
        ]


class AggregateSerializer(serializers.ModelSerializer):
    class Meta:
        model = Aggregate
        fields = ["id", "run", "agent_type", "episodes", "mean", "std", "sem", "ci_low", "ci_high"]


class EpisodeSerializer(serializers.Serializer):
    """One episode's result, as EpisodeViewSet lists them (read-only; it describes the rows)."""

    run = serializers.IntegerField(read_only=True)
    agent_type = serializers.CharField(read_only=True)
    episode = serializers.IntegerField(read_only=True)
    score = serializers.FloatField(read_only=True)
    complexity = serializers.FloatField(read_only=True, allow_null=True)


ID_MAX = 2**63 - 1


def id_param(params, name: str, *, maximum: int = ID_MAX) -> int | None:
    """A whole-number query parameter (an id, a page size) from 1 to ``maximum``; None when absent;
    400 (DRF's ValidationError) otherwise."""
    try:
        return number_param(params, name, minimum=1, maximum=maximum, integer=True)
    except InvalidInput as exc:
        raise ValidationError({name: [str(exc)]}) from None


class _Scoped:
    experiment_path = "run__experiment"

    def get_queryset(self):
        visible = selectors.experiments_visible(user=self.request.user)
        qs = self.queryset.filter(**{f"{self.experiment_path}__in": visible})
        params = self.request.query_params
        experiment = id_param(params, "experiment")
        if experiment is not None:
            qs = qs.filter(**{f"{self.experiment_path}_id": experiment})
        run = id_param(params, "run") if self.experiment_path != "experiment" else None
        if run is not None:
            qs = qs.filter(run_id=run)
        return qs


class ExperimentViewSet(viewsets.ReadOnlyModelViewSet):
    serializer_class = ExperimentSerializer

    def get_queryset(self):
        return selectors.experiments_visible(user=self.request.user)


class RunViewSet(_Scoped, viewsets.ReadOnlyModelViewSet):
    queryset = Run.objects.order_by("experiment_id", "index")
    serializer_class = RunSerializer
    experiment_path = "experiment"


class AggregateViewSet(_Scoped, viewsets.ReadOnlyModelViewSet):
    queryset = Aggregate.objects.order_by("run_id", "agent_type")
    serializer_class = AggregateSerializer


class EpisodePages(pagination.PageNumberPagination):
    page_size = 100
    page_size_query_param = "page_size"
    max_page_size = 5000

    def get_page_size(self, request):
        size = id_param(request.query_params, self.page_size_query_param, maximum=self.max_page_size)
        return self.page_size if size is None else size


class EpisodeViewSet(_Scoped, viewsets.GenericViewSet):
    """{run, agent_type, episode, score, complexity} per episode, by run, type and episode; the
    episodes are arrays of their chunk rows, so a page reads only the chunks it covers."""

    pagination_class = EpisodePages
    queryset = ChunkResult.objects.all()
    serializer_class = EpisodeSerializer

    def list(self, request):
        return self.get_paginated_response(self.paginate_queryset(selectors.EpisodeList(self.get_queryset())))


router = routers.DefaultRouter()
router.register("experiments", ExperimentViewSet, basename="lambdastar-experiment")
router.register("runs", RunViewSet, basename="lambdastar-run")
router.register("aggregates", AggregateViewSet, basename="lambdastar-aggregate")
router.register("episodes", EpisodeViewSet, basename="lambdastar-episode")

urlpatterns = [path("", include(router.urls))]
