"""Λ* experiments: a configuration, its runs (points of the sweep), chunk results (with their
episodes' scores) and aggregates.

The database is the truth: an experiment's progress is the set of its stored chunks, each unique
per (run, agent type, chunk index), so a redelivered chunk is stored once.
"""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models

from lambdastar import sweep
from lambdastar.engine import ConfigError
from lambdastar.engine.errors import config_errors


def configuration_errors(configuration, seed) -> dict | None:
    """{field: [messages]} naming every bad option (a seed problem on the seed field), or None if
    the configuration runs."""
    try:
        sweep.run_configs(configuration, seed)
    except ConfigError as exc:
        errors: dict[str, list[str]] = {}
        seed_field = isinstance(configuration, dict) and "seed" not in configuration
        for error in config_errors(exc):
            field = "seed" if error.option == "seed" and seed_field else "configuration"
            errors.setdefault(field, []).append(f"{error.option}: {error.message}")
        return errors
    return None


class Experiment(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft"
        QUEUED = "queued"
        RUNNING = "running"
        FINISHED = "finished"
        FAILED = "failed"
        CANCELLED = "cancelled"

    ACTIVE = (Status.QUEUED, Status.RUNNING)

    name = models.CharField(max_length=200)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="lambdastar_experiments")
    configuration = models.JSONField(help_text="Engine options and the factors to sweep (see lambdastar.sweep).")
    seed = models.PositiveBigIntegerField(default=0)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.DRAFT)
    total_episodes = models.PositiveBigIntegerField(default=0, help_text="Episodes × types × runs.")
    error = models.TextField(blank=True)
    cloned_from = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="clones")
    created_at = models.DateTimeField(auto_now_add=True)
    queued_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self):
        return f"{self.name} (#{self.pk})"

    def clean(self):
        errors = configuration_errors(self.configuration, self.seed)
        if errors:
            raise ValidationError(errors)

    def save(self, *args, **kwargs):
        self.clean()  # every path (admin, file, API, shell) stores only configurations that run
        super().save(*args, **kwargs)


class Run(models.Model):
    """One point of the sweep, with the full engine configuration it runs."""

    experiment = models.ForeignKey(Experiment, on_delete=models.CASCADE, related_name="runs")
    index = models.PositiveIntegerField()
    factors = models.JSONField(default=dict)
    engine_config = models.JSONField()
    width = models.PositiveIntegerField()
    height = models.PositiveIntegerField()
    iterations = models.PositiveIntegerField()
    agents = models.PositiveIntegerField()
    observation_range = models.PositiveIntegerField()
    complexity_min = models.FloatField(null=True, blank=True)
    complexity_max = models.FloatField(null=True, blank=True)
    coordination = models.BooleanField(default=False)
    chunk_episodes = models.JSONField(
        default=dict, blank=True, help_text="Episodes per chunk of each agent type, fixed at launch."
    )

    class Meta:
        ordering = ["experiment", "index"]
        constraints = [models.UniqueConstraint(fields=["experiment", "index"], name="lambdastar_run_unique_index")]

    def __str__(self):
        return f"run {self.index + 1}: {sweep.describe(self.factors)}"

    @property
    def complexity_label(self) -> str:
        if self.complexity_min is None and self.complexity_max is None:
            return "any"
        return (
            f"{self.complexity_min if self.complexity_min is not None else ''}–"
            f"{self.complexity_max if self.complexity_max is not None else ''}"
        )


class ChunkResult(models.Model):
    """Episodes first..stop-1 of one agent type in one run, as one worker computed them.

    The per-episode results are two arrays of the chunk row (one row per episode cost the store
    ~15 µs of database time per episode); an episode's streams derive from (experiment seed,
    agent type, episode), so its number is all that places it.
    """

    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="chunks")
    agent_type = models.CharField(max_length=16)
    index = models.PositiveIntegerField()
    first_episode = models.PositiveIntegerField()
    stop_episode = models.PositiveIntegerField()
    worker = models.CharField(max_length=200, blank=True)
    elapsed_s = models.FloatField(default=0.0)
    created_at = models.DateTimeField(auto_now_add=True)
    scores = models.JSONField(default=list, help_text="Group score of each episode, first..stop-1 in order.")
    complexities = models.JSONField(
        null=True, blank=True, help_text="K(μ) of each episode's patterns (paper rules), else null."
    )

    class Meta:
        ordering = ["run", "agent_type", "index"]
        constraints = [
            models.UniqueConstraint(fields=["run", "agent_type", "index"], name="lambdastar_chunk_once"),
        ]

    @property
    def episodes(self) -> int:
        return self.stop_episode - self.first_episode


class Aggregate(models.Model):
    """Summary of one agent type in one run (sample std, SEM, Student-t 95 % interval)."""

    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="aggregates")
    agent_type = models.CharField(max_length=16)
    episodes = models.PositiveIntegerField()
    mean = models.FloatField()
    std = models.FloatField()
    sem = models.FloatField()
    ci_low = models.FloatField()
    ci_high = models.FloatField()

    class Meta:
        ordering = ["run", "agent_type"]
        constraints = [models.UniqueConstraint(fields=["run", "agent_type"], name="lambdastar_aggregate_once")]
