from decimal import Decimal

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone

from markets.models import SpectatorOptions
from tournaments.loebner.rules.formats import FORMATS


class Contest(SpectatorOptions):
    """One Loebner Prize contest: its format (the pure rules' name), calendar and prize ladder."""

    class Status(models.TextChoices):
        DRAFT = "draft", "draft"
        OPEN = "open", "open for entries"
        QUALIFYING = "qualifying", "qualifying"
        FINALS = "finals", "finals"
        DONE = "done", "results published"
        ROLLED_OVER = "rolled_over", "no compliant entry: prize rolled over"
        SINGLE = "single", "a single compliant entry: prize awarded without a contest"

    class Scoring(models.TextChoices):
        ORGANISER = "organiser", "the organiser scores each answer 0, 1 or 2"
        AUDIENCE = "audience", "an audience votes for the most human-like answer (anonymised, random order)"

    name = models.CharField(max_length=200, unique=True)
    format_name = models.CharField(
        max_length=30,
        choices=[(name, name) for name in FORMATS],
        help_text="Generic and compact: as many judges and confederates as finalists. Building the schedule "
        "shows what each format becomes.",
    )
    seed = models.BigIntegerField(
        null=True, blank=True, help_text="Seeds the schedule (left/right, order): a run can be repeated."
    )
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.DRAFT, db_index=True)
    opens_at = models.DateTimeField(null=True, blank=True)
    closes_at = models.DateTimeField(null=True, blank=True, help_text="Closing date for receipt of entries.")
    contest_day = models.DateTimeField(
        null=True, blank=True, help_text="When round 1 starts: the contest clock of the time questions."
    )
    round_minutes = models.FloatField(
        null=True,
        blank=True,
        validators=[MinValueValidator(0.2), MaxValueValidator(240)],
        help_text="Overrides the format's (per witness when sequential, per round when simultaneous).",
    )
    review_minutes = models.FloatField(null=True, blank=True, validators=[MinValueValidator(0), MaxValueValidator(120)])
    break_minutes = models.FloatField(null=True, blank=True, validators=[MinValueValidator(0), MaxValueValidator(120)])
    rounds_follow_on = models.BooleanField(
        default=False, help_text="Each round starts by itself as soon as the one before has ended."
    )
    keystroke_mode = models.BooleanField(default=False, help_text="Meetings stream each side's typing (LPP-style).")
    qualifying_limit = models.PositiveSmallIntegerField(
        default=16,
        validators=[MinValueValidator(1), MaxValueValidator(64)],
        help_text="The first N compliant entries by receipt go to qualifying.",
    )
    finalists = models.PositiveSmallIntegerField(default=4, validators=[MinValueValidator(1), MaxValueValidator(16)])
    question_set = models.ForeignKey(
        "loebner.QuestionSet", null=True, blank=True, on_delete=models.PROTECT, related_name="contests"
    )
    qualifying_scoring = models.CharField(max_length=10, choices=Scoring.choices, default=Scoring.ORGANISER)
    tie_winner = models.CharField(
        max_length=8, blank=True, help_text="The entry (E1…) the organiser named winner where the rules left a tie."
    )
    tie_decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    tie_decided_at = models.DateTimeField(null=True, blank=True)
    rolls_into = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="rolled_from",
        help_text="The contest whose prize grows by this one's when no entry is compliant.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return self.name


class PrizeRow(models.Model):
    """One rung of the prize ladder: place 1 is the bronze (annual) prize."""

    contest = models.ForeignKey(Contest, on_delete=models.CASCADE, related_name="prizes")
    place = models.PositiveSmallIntegerField(validators=[MinValueValidator(1)])
    amount = models.DecimalField(
        max_digits=10, decimal_places=2, default=Decimal("0"), validators=[MinValueValidator(0)]
    )
    currency = models.CharField(max_length=3, default="USD")
    medal = models.CharField(max_length=40, blank=True, help_text='e.g. "bronze"')

    class Meta:
        ordering = ["contest", "place"]
        constraints = [models.UniqueConstraint(fields=["contest", "place"], name="loebner_prize_place_once")]

    def __str__(self):
        return f"{self.contest}: place {self.place} {self.amount} {self.currency}"


class ContestEntry(models.Model):
    """An arena Entry entered in a contest, with its receipt time and its compliance."""

    class Check(models.TextChoices):
        PENDING = "pending", "not checked yet"
        COMPLIANT = "compliant", "compliant"
        REFUSED = "refused", "not compliant"

    contest = models.ForeignKey(Contest, on_delete=models.CASCADE, related_name="entries")
    entry = models.ForeignKey("arena.Entry", on_delete=models.PROTECT, related_name="contest_entries")
    entrant = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="contest_entries"
    )
    received_at = models.DateTimeField(
        db_index=True, default=timezone.now, editable=False, help_text="Recorded by the server when the entry arrives."
    )
    people = models.JSONField(
        default=list,
        blank=True,
        help_text='Everyone affiliated with the entry: [{"name", "email", "affiliation"}, …]; a person may be '
        "affiliated with one entry of the contest only.",
    )
    rights_statement = models.BooleanField(
        default=False, help_text="The submitters assert intellectual rights to all components."
    )
    under_18 = models.BooleanField(default=False)
    guardian_permission = models.BooleanField(
        default=False, help_text="Written permission of a guardian (required under 18)."
    )
    compliance = models.CharField(max_length=10, choices=Check.choices, default=Check.PENDING)
    compliance_note = models.CharField(max_length=500, blank=True)
    qualified = models.BooleanField(default=False, help_text="Among the first compliant entries sent to qualifying.")
    finalist = models.BooleanField(default=False)

    class Meta:
        ordering = ["contest", "received_at", "pk"]
        verbose_name_plural = "contest entries"
        constraints = [models.UniqueConstraint(fields=["contest", "entry"], name="loebner_entry_once")]

    def __str__(self):
        return f"{self.entry} in {self.contest}"

    @property
    def statements_ok(self) -> bool:
        return self.rights_statement and (self.guardian_permission or not self.under_18)

    @property
    def compliant(self) -> bool:
        return self.statements_ok and self.compliance == self.Check.COMPLIANT


class Participant(models.Model):
    """A label of the rules (J1…, E1…, C1…) mapped to a judge or confederate user, or a finalist entry."""

    class Kind(models.TextChoices):
        JUDGE = "judge", "judge"
        ENTRY = "entry", "entry"
        CONFEDERATE = "confederate", "confederate"

    contest = models.ForeignKey(Contest, on_delete=models.CASCADE, related_name="participants")
    label = models.CharField(max_length=8)
    kind = models.CharField(max_length=12, choices=Kind.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="loebner_roles"
    )
    contest_entry = models.ForeignKey(
        ContestEntry, null=True, blank=True, on_delete=models.PROTECT, related_name="participants"
    )

    class Meta:
        ordering = ["contest", "kind", "label"]
        constraints = [
            models.UniqueConstraint(fields=["contest", "label"], name="loebner_label_once"),
            models.CheckConstraint(
                condition=(Q(kind="entry", contest_entry__isnull=False, user__isnull=True))
                | (Q(kind__in=["judge", "confederate"], contest_entry__isnull=True, user__isnull=False)),
                name="loebner_participant_is_user_or_entry",
            ),
        ]

    def __str__(self):
        return f"{self.label} ({self.name})"

    @property
    def name(self) -> str:
        return str(self.contest_entry.entry) if self.contest_entry_id else self.user.get_username()
