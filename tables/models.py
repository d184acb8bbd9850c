"""Turing the Tables: every game's state in the database.

A :class:`Game` keeps its whole configuration, its seed and the turn order drawn from it; its
:class:`Agent` rows are ``arena.Entry`` rows of the llm engine (the judge too), so every call goes
through the engine gateway and its call log. Each :class:`Turn` keeps every :class:`Call` made for it
(agent replies, corrections, LLM judges: the exact prompt sent, the raw response, latency, tokens), the
:class:`Verdict` of each judge on each reply, and at most one :class:`Vote` or one :class:`Penalty`."""

from django.conf import settings
from django.db import models
from django.utils import timezone

from arena.models import Entry


class Game(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", "pending"
        RUNNING = "running", "running"
        FINISHED = "finished", "finished"

    class Outcome(models.TextChoices):
        NONE = "", "not decided"
        LOSER = "loser", "an agent declared human"
        DRAW = "draw", "draw (turn cap)"
        VOID = "void", "void (an agent never answered, or its calls failed past the breaker)"

    title = models.CharField(max_length=200, blank=True)
    config = models.JSONField(help_text="the configuration the game was created from (no secrets)")
    seed = models.BigIntegerField()
    order = models.JSONField(help_text="agent names in turn order, drawn from the seed")
    end_votes = models.PositiveSmallIntegerField(default=3)
    max_turns = models.PositiveIntegerField(default=60)
    similarity_threshold = models.FloatField(default=0.75)
    partial_threshold = models.FloatField(default=90.0)
    judge = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING, db_index=True)
    outcome = models.CharField(max_length=8, choices=Outcome.choices, default=Outcome.NONE, blank=True)
    loser = models.ForeignKey("Agent", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    void_reason = models.CharField(max_length=300, blank=True, help_text="why a void game counts for nothing")
    turns_played = models.PositiveIntegerField(default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self):
        return self.title or f"Game {self.pk}"

    @property
    def finished(self) -> bool:
        return self.status == self.Status.FINISHED


class Agent(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="agents")
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="+")
    name = models.CharField(max_length=40)
    position = models.PositiveSmallIntegerField(help_text="place in the turn order")
    # counted apart (the original mixed them): kept with each Vote and Penalty, in the same transaction
    received_count = models.PositiveIntegerField(default=0)
    penalties_count = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["game", "position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "name"], name="tables_agent_name_once"),
            models.UniqueConstraint(fields=["game", "position"], name="tables_agent_position_once"),
        ]

    def __str__(self):
        return self.name


class Turn(models.Model):
    class Phase(models.TextChoices):
        OPENING = "opening", "opening statement"
        VOTE = "vote", "vote"

    class Status(models.TextChoices):
        RUNNING = "running", "running"
        DONE = "done", "done"
        FAILED = "failed", "no reply (recorded)"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="turns")
    number = models.PositiveIntegerField()
    agent = models.ForeignKey(Agent, on_delete=models.CASCADE, related_name="turns")
    phase = models.CharField(max_length=8, choices=Phase.choices)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.RUNNING)
    error = models.TextField(blank=True)
    platform_ms = models.FloatField(
        default=0, help_text="the platform's own time: the turn's wall time less its calls'"
    )
    started_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [models.UniqueConstraint(fields=["game", "number"], name="tables_turn_once")]


class Call(models.Model):
    """One LLM call through the gateway. An agent's successful call is also its message in the shared
    transcript (``penalised`` ones are marked there, never passed on unmarked)."""

    class Role(models.TextChoices):
        OPENING = "opening", "opening statement"
        VOTE = "vote", "vote"
        CORRECTION = "correction", "correction"
        JUDGE = "judge", "LLM judge"

    turn = models.ForeignKey(Turn, on_delete=models.CASCADE, related_name="calls")
    agent = models.ForeignKey(Agent, null=True, blank=True, on_delete=models.CASCADE, related_name="calls")
    role = models.CharField(max_length=10, choices=Role.choices)
    seq = models.PositiveSmallIntegerField(help_text="order within the turn")
    prompt = models.JSONField(help_text="the exact messages sent")
    text = models.TextField(blank=True)
    raw = models.JSONField(null=True, blank=True, help_text="the server's whole response")
    ok = models.BooleanField(default=True)
    error = models.TextField(blank=True)
    attempts = models.PositiveSmallIntegerField(default=1)
    latency_ms = models.PositiveIntegerField(default=0)
    tokens_in = models.PositiveIntegerField(null=True, blank=True)
    tokens_out = models.PositiveIntegerField(null=True, blank=True)
    penalised = models.BooleanField(default=False)
    # when the reply came (a turn writes its calls together at its end)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["turn", "seq"]
        constraints = [models.UniqueConstraint(fields=["turn", "seq"], name="tables_call_once")]


class Verdict(models.Model):
    class Judge(models.TextChoices):
        FUNCTIONAL = "functional", "functional"
        LLM = "llm", "LLM judge"

    call = models.ForeignKey(Call, on_delete=models.CASCADE, related_name="verdicts", help_text="the reply judged")
    judge = models.CharField(max_length=10, choices=Judge.choices)
    judge_call = models.ForeignKey(Call, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    passed = models.BooleanField(null=True, help_text="None: the judge answered garbage (recorded, decides nothing)")
    rule = models.CharField(max_length=20, blank=True)
    reason = models.TextField(blank=True)
    target = models.CharField(max_length=100, blank=True, help_text="the name the judge read as the vote")
    form = models.CharField(max_length=12, blank=True, help_text="json, json_lenient, free_text or none")
    similarity = models.FloatField(null=True, blank=True, help_text="highest similarity to an earlier message")

    class Meta:
        ordering = ["call", "judge"]


class Vote(models.Model):
    turn = models.OneToOneField(Turn, on_delete=models.CASCADE, related_name="vote")
    voter = models.ForeignKey(Agent, on_delete=models.CASCADE, related_name="votes_cast")
    target = models.ForeignKey(Agent, on_delete=models.CASCADE, related_name="votes_received")
    call = models.ForeignKey(Call, on_delete=models.CASCADE, related_name="+")
    reason = models.TextField()
    corrected = models.BooleanField(default=False)
    grounded = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=~models.Q(voter=models.F("target")), name="tables_no_self_vote")
        ]


class Penalty(models.Model):
    turn = models.OneToOneField(Turn, on_delete=models.CASCADE, related_name="penalty")
    agent = models.ForeignKey(Agent, on_delete=models.CASCADE, related_name="penalties")
    rule = models.CharField(max_length=20)
    reason = models.TextField()
