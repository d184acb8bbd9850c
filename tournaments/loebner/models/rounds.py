from django.core.validators import MinValueValidator
from django.db import models


class Round(models.Model):
    """One round of the finals. Its clock lives in the database: started_at, the paused time, and the
    format's lengths give every phase (talk, review, break) without a timer in any process. It ends
    (``ended_at``) as soon as all its meetings have ended (``services.rounds.round_end_if_done``)."""

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", "scheduled"
        RUNNING = "running", "running"
        PAUSED = "paused", "paused"
        ENDED = "ended", "ended"

    contest = models.ForeignKey("loebner.Contest", on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(validators=[MinValueValidator(1)])
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SCHEDULED)
    started_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(
        null=True, blank=True, help_text="When its last meeting ended (or its time ran out): the round's end."
    )
    paused_at = models.DateTimeField(null=True, blank=True)
    paused_s = models.FloatField(default=0, help_text="Seconds spent paused so far (the clock stops meanwhile).")
    restarts = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["contest", "number"]
        constraints = [models.UniqueConstraint(fields=["contest", "number"], name="loebner_round_once")]

    def __str__(self):
        return f"{self.contest} round {self.number}"


class Meeting(models.Model):
    """One cell of the schedule: a judge meets an entry and a confederate, realised as an arena
    three-party interrogation (the current one; a restart replaces it, the old one stays, aborted)."""

    class Left(models.TextChoices):
        ENTRY = "entry", "entry"
        CONFEDERATE = "confederate", "confederate"
        UNKNOWN = "unknown", "unknown (the judge's own page placed the partners)"

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="meetings")
    judge = models.ForeignKey("loebner.Participant", on_delete=models.PROTECT, related_name="+")
    entry = models.ForeignKey("loebner.Participant", on_delete=models.PROTECT, related_name="+")
    confederate = models.ForeignKey("loebner.Participant", on_delete=models.PROTECT, related_name="+")
    left = models.CharField(max_length=12, choices=Left.choices)
    interrogation = models.OneToOneField(
        "arena.Interrogation", null=True, blank=True, on_delete=models.SET_NULL, related_name="loebner_meeting"
    )
    replaced = models.ManyToManyField(
        "arena.Interrogation",
        blank=True,
        related_name="loebner_meetings_replaced",
        help_text="The meeting's earlier interrogations, replaced by a restart of its round (kept, never published).",
    )

    class Meta:
        ordering = ["round", "judge__label"]
        constraints = [models.UniqueConstraint(fields=["round", "judge"], name="loebner_judge_once_a_round")]

    def __str__(self):
        return f"R{self.round.number} {self.judge.label}{self.entry.label}{self.confederate.label}"


class Judgment(models.Model):
    """The judge's human pick for one meeting (taken from the arena verdict, or given by a bot judge)."""

    class Human(models.TextChoices):
        ENTRY = "entry", "the entry"
        CONFEDERATE = "confederate", "the confederate"

    meeting = models.OneToOneField(Meeting, on_delete=models.CASCADE, related_name="judgment")
    human = models.CharField(max_length=12, choices=Human.choices)
    decided_at = models.DateTimeField()


class JudgeRank(models.Model):
    """A judge's rank of one entity at the end, as the format asks (tournaments.loebner.rules.formats):
    2009, the entities the judge called non-human, k most human; mean-rank, the entries met, 1 best;
    points, the entries met, k most human; all-entities, everyone met, 1 best."""

    contest = models.ForeignKey("loebner.Contest", on_delete=models.CASCADE, related_name="ranks")
    judge = models.ForeignKey("loebner.Participant", on_delete=models.PROTECT, related_name="+")
    ranked = models.ForeignKey(
        "loebner.Participant",
        on_delete=models.PROTECT,
        related_name="+",
        help_text="An entry or, as the format asks, a confederate.",
    )
    rank = models.PositiveSmallIntegerField(validators=[MinValueValidator(1)])

    class Meta:
        ordering = ["contest", "judge__label", "ranked__label"]
        constraints = [models.UniqueConstraint(fields=["contest", "judge", "ranked"], name="loebner_rank_once")]
