"""Studies: a pre-registrable design, its participants (anonymous or logged in), their consent, survey
answers and lobby tickets, and the games, each an ordinary arena interrogation."""

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q


class Study(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", "draft"
        OPEN = "open", "open (on /play/)"
        CLOSED = "closed", "closed"

    class Format(models.TextChoices):
        TWO_PARTY = "two-party", "two-party (2023/24)"
        THREE_PARTY = "three-party", "three-party (2025)"

    slug = models.SlugField(max_length=60, unique=True)
    title = models.CharField(max_length=200)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.DRAFT, db_index=True)
    format = models.CharField(max_length=12, choices=Format.choices, default=Format.TWO_PARTY)
    minutes = models.FloatField(default=5)
    max_message_chars = models.PositiveIntegerField(default=300)
    strict_alternation = models.BooleanField(default=True)
    human_witness_share = models.FloatField(default=0.5)
    games_per_participant = models.PositiveIntegerField(default=4)
    games_per_day = models.PositiveIntegerField(default=40)
    human_wait_s = models.FloatField(default=30)
    seed = models.BigIntegerField()
    config = models.JSONField(
        help_text="The whole design as loaded (studies.rules.design); the fields above mirror it."
    )
    # the lobby's counters (ticket, pair and fallback numbers index the seeded sequences)
    tickets_issued = models.PositiveIntegerField(default=0)
    pairs_formed = models.PositiveIntegerField(default=0)
    ai_dealt = models.PositiveIntegerField(default=0, help_text="AI games dealt from the blocks (not fallbacks).")
    fallbacks = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created_at"]
        verbose_name_plural = "studies"
        constraints = [
            models.CheckConstraint(
                condition=Q(human_witness_share__gte=0, human_witness_share__lte=1), name="study_share_0_1"
            ),
        ]

    def __str__(self):
        return self.title

    @property
    def design(self):
        from studies.rules.design import design_read

        return design_read(self.config)


DEFAULT_LABEL = "an AI chatbot"  # a condition's public label when the researcher set none


class Condition(models.Model):
    """An AI witness of a study: an arena entry (engine, settings, persona) under the study's name for it."""

    study = models.ForeignKey(Study, on_delete=models.CASCADE, related_name="conditions")
    index = models.PositiveSmallIntegerField(
        help_text="Its place in the design's witnesses (the seeded sequences use it)."
    )
    name = models.CharField(max_length=60, help_text="The study's internal name: analysis and exports.")
    label = models.CharField(
        max_length=60,
        blank=True,
        help_text='What players are told it was after their verdict; blank: "an AI chatbot".',
    )
    persona = models.CharField(max_length=40, blank=True, help_text="e.g. PERSONA or NO-PERSONA")
    entry = models.ForeignKey("arena.Entry", on_delete=models.PROTECT, related_name="study_conditions")

    class Meta:
        ordering = ["study", "index"]
        constraints = [
            models.UniqueConstraint(fields=["study", "index"], name="condition_index_unique"),
            models.UniqueConstraint(fields=["study", "name"], name="condition_name_unique"),
        ]

    def __str__(self):
        return self.name

    @property
    def public_label(self) -> str:
        """The name players see in a reveal: the researcher's label, never the internal name."""
        return self.label or DEFAULT_LABEL


class Participant(models.Model):
    """One person in one study. `player` is the arena user the games run under (a fresh account with no
    password and no role, never logged in: the study's own consoles act for it); `account` is the
    person's own login, when they had one."""

    class Stage(models.TextChoices):
        CONSENT = "consent", "consent"
        SURVEY = "survey", "demographics"
        PLAYING = "playing", "playing"
        DONE = "done", "done"
        WITHDRAWN = "withdrawn", "withdrawn"

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    study = models.ForeignKey(Study, on_delete=models.CASCADE, related_name="participants")
    player = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="study_participant")
    account = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="study_participations"
    )
    device = models.CharField(max_length=64, blank=True, help_text="A hash of the browser's device cookie.")
    origin = models.CharField(
        max_length=64, blank=True, db_index=True, help_text="A keyed hash of the address it joined from."
    )
    stage = models.CharField(max_length=10, choices=Stage.choices, default=Stage.CONSENT, db_index=True)
    fixed_role = models.CharField(max_length=12, blank=True)
    simulated = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    last_seen_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["study", "pk"]

    def __str__(self):
        return f"participant {str(self.public_id)[:8]}"

    @property
    def anon_id(self) -> str:
        return f"P{str(self.public_id)[:8]}"


class ConsentRecord(models.Model):
    participant = models.OneToOneField(Participant, on_delete=models.CASCADE, related_name="consent")
    text_sha256 = models.CharField(max_length=64, help_text="The consent text they read.")
    agreed_at = models.DateTimeField()

    def __str__(self):
        return f"{self.participant} agreed {self.agreed_at:%Y-%m-%d %H:%M}"


class SurveyAnswer(models.Model):
    class Phase(models.TextChoices):
        DEMOGRAPHICS = "demographics", "demographics"
        EXIT = "exit", "exit questions"
        ATTENTION = "attention", "attention check"

    participant = models.ForeignKey(Participant, on_delete=models.CASCADE, related_name="answers")
    phase = models.CharField(max_length=12, choices=Phase.choices)
    key = models.CharField(max_length=40)
    answer = models.TextField()
    passed = models.BooleanField(null=True, blank=True, help_text="Attention checks: whether it passed.")
    answered_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["participant", "phase", "key"]
        constraints = [models.UniqueConstraint(fields=["participant", "phase", "key"], name="survey_answer_once")]


class Ticket(models.Model):
    """A participant's place in the lobby: the database is the lobby's truth (the channel layer only
    tells pages that something changed), so a restart loses no one."""

    class State(models.TextChoices):
        WAITING = "waiting", "waiting"
        MATCHED = "matched", "matched"
        CANCELLED = "cancelled", "cancelled (no partner in time)"
        LEFT = "left", "left the lobby"

    study = models.ForeignKey(Study, on_delete=models.CASCADE, related_name="tickets")
    participant = models.ForeignKey(Participant, on_delete=models.CASCADE, related_name="tickets")
    number = models.PositiveIntegerField()
    kind = models.CharField(max_length=8, blank=True, help_text='"human" or "ai" once decided ("": looking)')
    condition = models.ForeignKey(Condition, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    state = models.CharField(max_length=10, choices=State.choices, default=State.WAITING, db_index=True)
    created_at = models.DateTimeField()
    wait_s = models.FloatField(default=0, help_text="The wait drawn from the seed for this ticket.")
    pair_until = models.DateTimeField(
        null=True, blank=True, help_text="Until then the ticket may be paired with a newcomer (min_wait_s)."
    )
    start_at = models.DateTimeField(null=True, blank=True, help_text="When its game starts (once decided).")
    partner = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    fallback = models.BooleanField(default=False)
    settled_at = models.DateTimeField(null=True, blank=True)
    game = models.ForeignKey("Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="tickets")

    class Meta:
        ordering = ["study", "number"]
        constraints = [
            models.UniqueConstraint(fields=["study", "number"], name="ticket_number_unique"),
            models.UniqueConstraint(fields=["participant"], condition=Q(state="waiting"), name="ticket_one_waiting"),
        ]


class Game(models.Model):
    """One game of a study, realised as an arena interrogation (one-to-one or three-party)."""

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    study = models.ForeignKey(Study, on_delete=models.CASCADE, related_name="games")
    interrogation = models.OneToOneField("arena.Interrogation", on_delete=models.PROTECT, related_name="study_game")
    interrogator = models.ForeignKey(Participant, on_delete=models.PROTECT, related_name="games_as_interrogator")
    human_witness = models.ForeignKey(
        Participant, null=True, blank=True, on_delete=models.PROTECT, related_name="games_as_witness"
    )
    condition = models.ForeignKey(
        Condition,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="games",
        help_text="The AI witness (None: a two-party game with a human witness).",
    )
    fallback = models.BooleanField(default=False, help_text="An AI witness took the place of a human who never came.")
    voided = models.BooleanField(default=False, db_index=True)
    void_reason = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["study", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(human_witness__isnull=False) | Q(condition__isnull=False), name="game_has_a_witness"
            ),
            models.CheckConstraint(condition=~Q(human_witness=models.F("interrogator")), name="game_no_self_match"),
        ]

    def __str__(self):
        return f"game {self.pk} of {self.study}"

    @property
    def witness_name(self) -> str:
        """The witness scored in a two-party game: "human" or the condition's name."""
        return "human" if self.condition_id is None else self.condition.name


class Exclusion(models.Model):
    participant = models.ForeignKey(Participant, on_delete=models.CASCADE, related_name="exclusions")
    rule = models.CharField(max_length=40)
    detail = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["participant", "rule"], name="exclusion_once_per_rule")]


class Flag(models.Model):
    class Kind(models.TextChoices):
        IDENTITY_LEAK = "identity_leak", "a witness named its model or vendor (game voided)"
        OUTLIER = "outlier", "verdicts improbable given the consensus"
        DAILY_CAP = "daily_cap", "reached the daily cap of games"

    study = models.ForeignKey(Study, on_delete=models.CASCADE, related_name="flags")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    participant = models.ForeignKey(Participant, null=True, blank=True, on_delete=models.CASCADE, related_name="flags")
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.CASCADE, related_name="flags")
    detail = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]


class TranscriptVerdict(models.Model):
    """Transcript-only judging: a finished game's transcript read afterwards and judged the same way, by a
    "displaced" human (a participant who was not in the game) or an "inverted" LLM judge (an entry asked
    through the engine gateway). Kept apart from the interrogators' own verdicts."""

    class Kind(models.TextChoices):
        DISPLACED = "displaced", "displaced human judge"
        INVERTED = "inverted", "inverted LLM judge"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="transcript_verdicts")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    participant = models.ForeignKey(Participant, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    entry = models.ForeignKey("arena.Entry", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    choice = models.CharField(max_length=8)
    confidence = models.PositiveSmallIntegerField()
    reason = models.TextField(blank=True)
    correct = models.BooleanField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "participant"],
                condition=Q(participant__isnull=False),
                name="transcript_verdict_once_per_person",
            ),
            models.UniqueConstraint(
                fields=["game", "entry"], condition=Q(entry__isnull=False), name="transcript_verdict_once_per_entry"
            ),
            models.CheckConstraint(
                condition=Q(participant__isnull=False) | Q(entry__isnull=False), name="transcript_verdict_has_a_judge"
            ),
        ]
