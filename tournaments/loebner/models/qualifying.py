from django.conf import settings
from django.core.validators import MaxValueValidator
from django.db import models
from django.db.models import Q


class QuestionSet(models.Model):
    """Qualifying questions, asked in order in one stateful conversation (2009's four sets, 2017's 20,
    or the organiser's own)."""

    name = models.CharField(max_length=100, unique=True)
    source = models.CharField(max_length=200, blank=True)
    notes = models.TextField(blank=True)

    def __str__(self):
        return self.name


class Question(models.Model):
    class Category(models.TextChoices):
        TIME = "time", "time"
        THINGS = "things", "things"
        RELATIONSHIPS = "relationships", "relationships"
        MEMORY = "memory", "memory"
        GENERAL = "general", "general"

    question_set = models.ForeignKey(QuestionSet, on_delete=models.CASCADE, related_name="questions")
    order = models.PositiveSmallIntegerField()
    category = models.CharField(max_length=15, choices=Category.choices, default=Category.GENERAL)
    text = models.CharField(max_length=500)
    expects = models.CharField(max_length=200, blank=True, help_text="What a good answer contains (for the scorer).")

    class Meta:
        ordering = ["question_set", "order"]
        constraints = [models.UniqueConstraint(fields=["question_set", "order"], name="loebner_question_order_once")]

    def __str__(self):
        return f"{self.order}. {self.text}"


class QualifyingSubject(models.Model):
    """Who answers the qualifying questions: an entry (asked through the gateway) or a human control."""

    class Status(models.TextChoices):
        WAITING = "waiting", "waiting"
        ASKING = "asking", "being asked"
        DONE = "done", "done"
        FAILED = "failed", "failed"

    contest = models.ForeignKey("loebner.Contest", on_delete=models.CASCADE, related_name="qualifying_subjects")
    contest_entry = models.OneToOneField(
        "loebner.ContestEntry", null=True, blank=True, on_delete=models.CASCADE, related_name="qualifying"
    )
    control_name = models.CharField(max_length=100, blank=True, help_text="A human control subject's name.")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.WAITING)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["contest", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(contest_entry__isnull=False, control_name="")
                | (Q(contest_entry__isnull=True) & ~Q(control_name="")),
                name="loebner_subject_entry_or_control",
            )
        ]

    def __str__(self):
        return self.control_name or str(self.contest_entry.entry)

    @property
    def is_control(self) -> bool:
        return self.contest_entry_id is None


class QualifyingAnswer(models.Model):
    subject = models.ForeignKey(QualifyingSubject, on_delete=models.CASCADE, related_name="answers")
    question = models.ForeignKey(Question, on_delete=models.PROTECT, related_name="answers")
    asked_text = models.CharField(max_length=500, help_text="The question as asked.")
    expected = models.CharField(
        max_length=200, blank=True, help_text="What a good answer contains, filled from the contest clock."
    )
    clock = models.DateTimeField(null=True, blank=True, help_text="The contest clock when asked (time questions).")
    text = models.TextField(blank=True)
    ok = models.BooleanField(default=True, help_text="False when the engine gave no answer.")
    asked_at = models.DateTimeField(null=True, blank=True)
    answered_at = models.DateTimeField(null=True, blank=True)
    latency_ms = models.PositiveIntegerField(default=0)
    score = models.PositiveSmallIntegerField(null=True, blank=True, validators=[MaxValueValidator(2)])
    scored_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["subject", "question__order"]
        constraints = [
            models.UniqueConstraint(fields=["subject", "question"], name="loebner_answer_once"),
            models.CheckConstraint(condition=Q(score__isnull=True) | Q(score__lte=2), name="loebner_score_0_2"),
        ]

    def __str__(self):
        return f"{self.subject} / {self.question.order}: {self.text[:40]}"


class AudienceVote(models.Model):
    """One audience member's vote for the most human-like answer to one question."""

    question = models.ForeignKey(Question, on_delete=models.CASCADE, related_name="votes")
    contest = models.ForeignKey("loebner.Contest", on_delete=models.CASCADE, related_name="votes")
    answer = models.ForeignKey(QualifyingAnswer, on_delete=models.CASCADE, related_name="votes")
    voter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["contest", "question", "voter"], name="loebner_vote_once")]
