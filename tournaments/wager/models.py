"""Long Now wager sessions: the committee, sessions, trials, interviews (arena interrogations), verdicts and
ranks, rules amendments, deadlock votes and the append-only audit log.

The interviews themselves are ordinary one-to-one `arena.Interrogation`s (consoles, timers from stored
deadlines, transcripts, signed seals); this app owns the plan, the aliases, the verdicts and the scoring.
"""

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import models
from django.db.models import Q

from markets.models import SpectatorOptions
from tournaments.wager.rules import AGGREGATIONS


class Committee(models.Model):
    """The Turing Test Committee: three Humans, one designated by each party, a third appointed by those two
    (or by the Foundation)."""

    name = models.CharField(max_length=200, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return self.name


class CommitteeMember(models.Model):
    class Role(models.TextChoices):
        FOR_PASS = "for_pass", "designated by the party predicting a pass (Kurzweil)"
        AGAINST_PASS = "against_pass", "designated by the party predicting no pass (Kapor)"
        THIRD = "third", "the third member, a middle ground"

    class AppointedBy(models.TextChoices):
        PARTY = "party", "the party himself or his designation"
        MEMBERS = "members", "the other two members"
        FOUNDATION = "foundation", "the Long Now Foundation"

    committee = models.ForeignKey(Committee, on_delete=models.CASCADE, related_name="members")
    name = models.CharField(max_length=200)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="wager_committee_seats"
    )
    role = models.CharField(max_length=16, choices=Role.choices)
    appointed_by = models.CharField(max_length=12, choices=AppointedBy.choices)
    appointed_at = models.DateField(null=True, blank=True)

    class Meta:
        ordering = ["committee", "role"]
        constraints = [
            models.UniqueConstraint(fields=["committee", "role"], name="wager_one_member_per_role"),
            models.CheckConstraint(
                condition=Q(role="third", appointed_by__in=["members", "foundation"])
                | Q(~Q(role="third"), appointed_by__in=["party", "foundation"]),
                name="wager_member_appointed_as_rules_say",
            ),
        ]

    def __str__(self):
        return f"{self.name} ({self.get_role_display()})"


class Aggregation(models.TextChoices):
    MAJORITY = "majority", "a majority of the trials (default)"
    ALL = "all", "every trial"
    ANY = "any", "any trial"


assert {c.value for c in Aggregation} == set(AGGREGATIONS)


class Session(SpectatorOptions):
    """A Turing Test Session: called by someone, paid by someone (recorded, not enforced), one computer,
    three judges, three foils, at least three trials of interviews."""

    class CalledBy(models.TextChoices):
        PARTY = "party", "a party (or his designee)"
        MEMBER = "member", "a committee member"
        FOUNDATION = "foundation", "the Long Now Foundation"

    committee = models.ForeignKey(Committee, on_delete=models.PROTECT, related_name="sessions")
    title = models.CharField(max_length=200)
    called_by = models.CharField(max_length=200, help_text="Who called the session.")
    called_by_kind = models.CharField(max_length=12, choices=CalledBy.choices)
    funded_by = models.CharField(max_length=200, help_text="Who provides (or raises) the funds.")
    computer = models.ForeignKey("arena.Entry", on_delete=models.PROTECT, related_name="wager_sessions")
    trials_planned = models.PositiveSmallIntegerField(default=3)
    interview_minutes = models.PositiveIntegerField(default=120, help_text="Two hours by the rules.")
    break_minutes = models.PositiveIntegerField(default=0, help_text="Rest between slots.")
    aggregation = models.CharField(max_length=8, choices=Aggregation.choices, default=Aggregation.MAJORITY)
    starts_at = models.DateTimeField()
    rehearsal = models.BooleanField(default=False, help_text="A rehearsal: shorter interviews, any number of trials.")
    seed = models.CharField(max_length=64, blank=True, help_text="Seeds the aliases (random when empty).")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_at"]
        constraints = [
            models.CheckConstraint(condition=Q(rehearsal=True) | Q(trials_planned__gte=3), name="wager_three_trials"),
            models.CheckConstraint(condition=Q(interview_minutes__gte=1), name="wager_interview_minutes"),
        ]

    def __str__(self):
        return self.title


class SessionSeat(models.Model):
    """A person's place in a session (a judge J1.., a foil F1..): `prefix` and the position make the label."""

    prefix = ""
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="wager_%(class)s_seats")
    position = models.PositiveSmallIntegerField()

    class Meta:
        abstract = True
        ordering = ["session", "position"]
        constraints = [
            models.UniqueConstraint(fields=["session", "user"], name="wager_%(class)s_once"),
            models.UniqueConstraint(fields=["session", "position"], name="wager_%(class)s_position"),
        ]

    @property
    def label(self):
        return f"{self.prefix}{self.position}"

    def __str__(self):
        return f"{self.label}: {self.user}"


class SessionJudge(SessionSeat):
    prefix = "J"
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="judges")

    class Meta(SessionSeat.Meta):
        pass


class SessionFoil(SessionSeat):
    prefix = "F"
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="foils")

    class Meta(SessionSeat.Meta):
        pass


class Trial(models.Model):
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="trials")
    number = models.PositiveSmallIntegerField()
    starts_at = models.DateTimeField()
    aliases = models.JSONField(default=dict, help_text='candidate ("computer", "F1", ...) → the alias judges see')

    class Meta:
        ordering = ["session", "number"]
        constraints = [models.UniqueConstraint(fields=["session", "number"], name="wager_trial_number")]

    def __str__(self):
        return f"{self.session} · trial {self.number}"


class Interview(models.Model):
    """One judge interviewing one candidate in a slot of a trial: an arena one-to-one interrogation."""

    trial = models.ForeignKey(Trial, on_delete=models.CASCADE, related_name="interviews")
    judge = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="wager_interviews")
    candidate = models.CharField(max_length=12, help_text='"computer" or a foil ("F1", ...)')
    slot = models.PositiveSmallIntegerField()
    starts_at = models.DateTimeField()
    interrogation = models.OneToOneField(
        "arena.Interrogation", on_delete=models.PROTECT, related_name="wager_interview"
    )

    class Meta:
        ordering = ["trial", "slot", "judge"]
        constraints = [
            models.UniqueConstraint(fields=["trial", "judge", "candidate"], name="wager_interview_once"),
            models.UniqueConstraint(fields=["trial", "judge", "slot"], name="wager_judge_one_per_slot"),
            models.UniqueConstraint(fields=["trial", "candidate", "slot"], name="wager_candidate_one_per_slot"),
        ]

    def __str__(self):
        return f"{self.trial} · slot {self.slot} · {self.judge} – {self.candidate}"


class TrialVerdict(models.Model):
    """A judge's verdict (human or machine) and rank (1 least human .. 4 most human) for one candidate."""

    class Choice(models.TextChoices):
        HUMAN = "human", "human"
        MACHINE = "machine", "machine"

    trial = models.ForeignKey(Trial, on_delete=models.CASCADE, related_name="verdicts")
    judge = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="wager_verdicts")
    candidate = models.CharField(max_length=12)
    verdict = models.CharField(max_length=8, choices=Choice.choices)
    rank = models.PositiveSmallIntegerField()
    submitted_at = models.DateTimeField()

    class Meta:
        ordering = ["trial", "judge", "candidate"]
        constraints = [
            models.UniqueConstraint(fields=["trial", "judge", "candidate"], name="wager_verdict_once"),
            models.UniqueConstraint(fields=["trial", "judge", "rank"], name="wager_rank_once"),
            models.CheckConstraint(condition=Q(rank__gte=1), name="wager_rank_positive"),
        ]

    def __str__(self):
        return f"{self.trial} · {self.judge}: {self.candidate} {self.verdict}, rank {self.rank}"


class Amendment(models.Model):
    """A change of the General Rules, allowed only for the four reasons the rules list."""

    class Reason(models.TextChoices):
        INCONSISTENT = "inconsistent", "(i) the rules have an inconsistency"
        AGAINST_INTENT = (
            "against_intent",
            "(ii) inconsistent with Turing's intent of determining human-level intelligence",
        )
        UNFAIR = "unfair", "(iii) the rules are unfair"
        INFEASIBLE = "infeasible", "(iv) the rules are infeasible to implement"

    class AgreedBy(models.TextChoices):
        PARTIES = "parties", "both parties (Kurzweil and Kapor)"
        COMMITTEE = "committee", "the committee (a party not available)"

    committee = models.ForeignKey(Committee, on_delete=models.PROTECT, related_name="amendments")
    session = models.ForeignKey(Session, null=True, blank=True, on_delete=models.PROTECT, related_name="amendments")
    reason = models.CharField(max_length=16, choices=Reason.choices)
    agreed_by = models.CharField(max_length=10, choices=AgreedBy.choices)
    agreed_names = models.CharField(max_length=500, help_text="Who agreed, by name.")
    text = models.TextField()
    agreed_at = models.DateTimeField()

    class Meta:
        ordering = ["agreed_at", "pk"]

    def __str__(self):
        return f"Amendment {self.pk} ({self.get_reason_display()})"


class DeadlockVote(models.Model):
    """A deadlock in the committee's deliberations, put to a vote of its three members."""

    committee = models.ForeignKey(Committee, on_delete=models.PROTECT, related_name="votes")
    session = models.ForeignKey(Session, null=True, blank=True, on_delete=models.PROTECT, related_name="votes")
    question = models.TextField()
    opened_at = models.DateTimeField()
    outcome = models.CharField(max_length=12, blank=True, help_text="yes / no / tied, once decided")
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["opened_at", "pk"]

    def __str__(self):
        return f"Vote {self.pk}: {self.question[:60]}"


class Ballot(models.Model):
    class Choice(models.TextChoices):
        YES = "yes", "yes"
        NO = "no", "no"
        ABSTAIN = "abstain", "abstain"

    vote = models.ForeignKey(DeadlockVote, on_delete=models.CASCADE, related_name="ballots")
    member = models.ForeignKey(CommitteeMember, on_delete=models.PROTECT, related_name="ballots")
    choice = models.CharField(max_length=8, choices=Choice.choices)
    cast_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["vote", "member"], name="wager_one_ballot_per_member")]


class AppendOnlyQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise PermissionDenied("The audit log is append-only: entries cannot be changed.")

    def delete(self):
        raise PermissionDenied("The audit log is append-only: entries cannot be deleted.")

    _raw_delete = delete


class AuditEntry(models.Model):
    """One organiser action. Append-only: the ORM refuses updates and deletes (and, on PostgreSQL, a
    trigger refuses them in the database too)."""

    at = models.DateTimeField(auto_now_add=True, db_index=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        related_name="+",
    )
    actor_name = models.CharField(max_length=150, help_text="The actor's username when acting (kept if renamed).")
    session = models.ForeignKey(
        Session, null=True, blank=True, on_delete=models.DO_NOTHING, db_constraint=False, related_name="+"
    )
    action = models.CharField(max_length=60)
    detail = models.JSONField(default=dict, blank=True)

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        ordering = ["at", "pk"]
        verbose_name_plural = "audit entries"

    def save(self, *args, **kwargs):
        if self.pk is not None or kwargs.get("force_update"):
            raise PermissionDenied("The audit log is append-only: entries cannot be changed.")
        kwargs["force_insert"] = True
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise PermissionDenied("The audit log is append-only: entries cannot be deleted.")

    def __str__(self):
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.actor_name or 'platform'}: {self.action}"
