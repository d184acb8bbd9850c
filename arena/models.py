import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q

# Engines whose replies come from outside the bots registry: a process of the platform posts them
# (lpp: `manage.py lpp_bridge` runs the legacy program), so no reply task answers for them.
EXTERNAL_ENGINES = {"lpp": "Legacy LPP program (run by manage.py lpp_bridge)"}


class Entry(models.Model):
    """A machine candidate: one engine with its settings, owned by an entrant."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="entries"
    )
    display_name = models.CharField(max_length=100, unique=True)
    engine = models.CharField(max_length=40, help_text="The bot engine that produces this entry's replies.")
    settings = models.JSONField(default=dict, blank=True, help_text="Engine settings (validated by the engine).")
    active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["display_name"]
        verbose_name_plural = "entries"

    def __str__(self):
        return self.display_name

    @property
    def is_external(self) -> bool:
        return self.engine in EXTERNAL_ENGINES


class Status(models.TextChoices):
    SCHEDULED = "scheduled", "scheduled"
    RUNNING = "running", "running"
    ENDED = "ended", "ended"
    ABORTED = "aborted", "aborted"


class Interrogation(models.Model):
    """One judge questioning one witness, or two at once (Turing's three-party form)."""

    class Kind(models.TextChoices):
        THREE_PARTY = "three_party", "three-party (two witnesses, one human, one machine)"
        ONE_TO_ONE = "one_to_one", "one-to-one (one witness)"

    class TurnRule(models.TextChoices):
        FREE = "free", "free: anyone writes any time"
        INTERROGATOR_FIRST = "interrogator_first", "the interrogator writes first, then free"
        ALTERNATE = "alternate", "the interrogator writes first, then strict alternation"

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    title = models.CharField(max_length=200, blank=True)
    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.THREE_PARTY)
    judge = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="interrogations")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.SCHEDULED, db_index=True)
    time_limit_s = models.PositiveIntegerField(default=300)
    keystroke_mode = models.BooleanField(
        default=False, help_text="LPP-style: each side's typing is shown character by character, and stored."
    )
    scheduled_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    end_reason = models.CharField(max_length=20, blank=True)
    published_at = models.DateTimeField(null=True, blank=True, db_index=True)
    published_with_names = models.BooleanField(default=False)
    rehearsal = models.BooleanField(
        default=False,
        db_index=True,
        help_text="An entrant's practice run: kept out of every result and never published.",
    )
    # the message policy, checked under the append's lock for people's messages (a study's rules)
    turn_rule = models.CharField(
        max_length=20,
        choices=TurnRule.choices,
        default=TurnRule.FREE,
        help_text="Who may write next (people only; machine witnesses answer each question once).",
    )
    max_message_chars = models.PositiveIntegerField(
        null=True, blank=True, help_text="People's messages are at most this long (the platform's own cap otherwise)."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        permissions = [
            ("publish_interrogation", "Can publish interrogation transcripts"),
            ("monitor_interrogation", "Can watch interrogations live"),
        ]

    def __str__(self):
        return self.title or f"Interrogation {self.pk}"

    @property
    def is_published(self):
        return self.published_at is not None


class Conversation(models.Model):
    """The exchange between an interrogator and one witness (an entry or a human confederate)."""

    class Side(models.TextChoices):
        LEFT = "left", "left"
        RIGHT = "right", "right"
        SOLE = "sole", "sole"

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    interrogation = models.ForeignKey(Interrogation, on_delete=models.CASCADE, related_name="conversations")
    interrogator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="conversations_as_interrogator"
    )
    witness_entry = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="conversations"
    )
    witness_human = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="conversations_as_witness",
    )
    side = models.CharField(max_length=5, choices=Side.choices)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.SCHEDULED, db_index=True)
    scheduled_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    time_limit_s = models.PositiveIntegerField(default=300)

    class Meta:
        ordering = ["interrogation", "side"]
        constraints = [
            models.CheckConstraint(
                condition=(Q(witness_entry__isnull=False, witness_human__isnull=True))
                | (Q(witness_entry__isnull=True, witness_human__isnull=False)),
                name="conversation_exactly_one_witness",
            ),
            models.UniqueConstraint(fields=["interrogation", "side"], name="conversation_one_per_side"),
        ]

    def __str__(self):
        return f"{self.interrogation} / {self.side}"

    @property
    def witness_is_machine(self) -> bool:
        return self.witness_entry_id is not None

    @property
    def witness_label(self) -> str:
        return self.witness_entry.display_name if self.witness_entry_id else self.witness_human.get_username()


class Message(models.Model):
    """One utterance; each links to its predecessor by SHA-256 so any later edit is detectable."""

    class Role(models.TextChoices):
        INTERROGATOR = "interrogator", "interrogator"
        WITNESS = "witness", "witness"

    conversation = models.ForeignKey(Conversation, on_delete=models.CASCADE, related_name="messages")
    seq = models.PositiveIntegerField()
    sender_role = models.CharField(max_length=12, choices=Role.choices)
    text = models.TextField()
    created_at = models.DateTimeField()
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)

    class Meta:
        ordering = ["conversation", "seq"]
        constraints = [models.UniqueConstraint(fields=["conversation", "seq"], name="message_seq_unique")]

    def __str__(self):
        return f"#{self.seq} {self.sender_role}: {self.text[:40]}"


class ConversationSeal(models.Model):
    """What closes a conversation's hash chain when its interrogation ends: its head and message count,
    signed with the platform's Ed25519 key (core.hashchain.Seal; written by arena.services.seals).

    The signature covers the conversation's and the interrogation's public ids, the count, the head
    and the end time: cutting the last messages, or editing this row, shows on verification."""

    conversation = models.OneToOneField(Conversation, on_delete=models.CASCADE, related_name="seal")
    message_count = models.PositiveIntegerField()
    head_hash = models.CharField(max_length=64, help_text="The last message's hash (the genesis hash if none).")
    ended_at = models.DateTimeField(null=True, blank=True)
    key_id = models.CharField(max_length=16, help_text="First 16 hex digits of the SHA-256 of the public key.")
    signature = models.CharField(max_length=88, help_text="Ed25519, base64.")
    version = models.PositiveSmallIntegerField(default=1)
    signed_at = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return f"{self.conversation}: {self.message_count} messages, key {self.key_id}"


class InterrogationSeal(models.Model):
    """What closes an interrogation's whole record (core.hashchain.RecordSeal, version 2): every
    conversation's id, side, witness kind, message count and head, the transcript's metadata and the
    verdict, signed with the platform's Ed25519 key when the interrogation ends, and again when its verdict
    is given (arena.services.seals). ``record``: the signed fields but the key id and the signature."""

    interrogation = models.OneToOneField(Interrogation, on_delete=models.CASCADE, related_name="record_seal")
    record = models.JSONField(help_text="The sealed conversations, metadata and verdict.")
    key_id = models.CharField(max_length=16, help_text="First 16 hex digits of the SHA-256 of the public key.")
    signature = models.CharField(max_length=88, help_text="Ed25519, base64.")
    version = models.PositiveSmallIntegerField(default=2)
    signed_at = models.DateTimeField(auto_now=True)

    def __str__(self):
        return f"{self.interrogation}: whole record, key {self.key_id}"


class Keystroke(models.Model):
    """One key press in a conversation (keystroke mode, the LPP bridge, imported LPP logs).

    `key` is the LPP key name (a literal character, "space", "BackSpace", "Return", ...), `char` what
    it stands for (empty for BackSpace, Return and unknown names), `stamp` the raw LPP stamp when the
    key came through the protocol, `time` when it was pressed.
    """

    conversation = models.ForeignKey(Conversation, on_delete=models.CASCADE, related_name="keystrokes")
    seq = models.PositiveIntegerField(help_text="Order within the conversation, from 1.")
    sender_role = models.CharField(max_length=12, choices=Message.Role.choices)
    key = models.CharField(max_length=40)
    char = models.CharField(max_length=1, blank=True)
    stamp = models.CharField(max_length=40, blank=True)
    time = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["conversation", "seq"]
        constraints = [models.UniqueConstraint(fields=["conversation", "seq"], name="keystroke_seq_unique")]

    def __str__(self):
        return f"#{self.seq} {self.sender_role} {self.key}"


class Verdict(models.Model):
    """The judge's decision: which witness is the human (or, one-to-one, human or machine)."""

    class Choice(models.TextChoices):
        LEFT = "left", "left is human"
        RIGHT = "right", "right is human"
        HUMAN = "human", "the witness is human"
        MACHINE = "machine", "the witness is a machine"

    interrogation = models.OneToOneField(Interrogation, on_delete=models.CASCADE, related_name="verdict")
    judge = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="verdicts")
    choice = models.CharField(max_length=8, choices=Choice.choices)
    confidence = models.PositiveSmallIntegerField()
    reason = models.TextField(blank=True)
    decided_at = models.DateTimeField()
    time_to_decision_s = models.FloatField(help_text="Seconds from the end of the conversations to the verdict.")
    correct = models.BooleanField()

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(confidence__gte=0, confidence__lte=100), name="verdict_confidence_0_100")
        ]

    def __str__(self):
        return f"{self.interrogation}: {self.get_choice_display()} ({self.confidence}%)"


# --- machine witnesses: health, call log, learner corpus ---------------------------------------

# Pull mode: the entrant's program polls the REST API (arena.api) and posts its replies itself.
EXTERNAL_ENGINES["pull"] = "Pull mode (the entrant's program polls the REST API)"
EXTERNAL_ENGINES["lpp2"] = "LPP2 program (connects to /socket.io/ as aiN; lpp.lpp2)"


class EntryHealth(models.Model):
    """An entry's circuit breaker: consecutive failures, and since when it is open (unhealthy).

    Kept beside Entry (one row per entry, created on first use) so the breaker's writes never touch
    the entry an organiser may be editing.
    """

    entry = models.OneToOneField(Entry, on_delete=models.CASCADE, related_name="health")
    consecutive_failures = models.PositiveIntegerField(default=0)
    unhealthy_since = models.DateTimeField(null=True, blank=True, help_text="Set while the breaker is open.")
    last_error = models.TextField(blank=True)
    last_error_at = models.DateTimeField(null=True, blank=True)
    last_ok_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "entry health"

    def __str__(self):
        return f"{self.entry}: {'unhealthy' if self.unhealthy_since else 'healthy'}"

    @property
    def healthy(self) -> bool:
        return self.unhealthy_since is None


class EngineCall(models.Model):
    """One call of an entry's engine (a reply attempt for any app, a health probe, a pull-mode reply)."""

    class Kind(models.TextChoices):
        REPLY = "reply", "reply"
        PROBE = "probe", "probe"
        PULL = "pull", "pull-mode reply"

    class Outcome(models.TextChoices):
        OK = "ok", "ok"
        ERROR = "error", "error"
        TIMEOUT = "timeout", "timeout"
        SKIPPED = "skipped", "skipped (breaker open)"

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="calls")
    subject = models.CharField(
        max_length=100,
        blank=True,
        help_text='what the call was for, e.g. "conversation 7 message 3", "markets game 3 question 5"',
    )
    conversation = models.ForeignKey(
        Conversation, null=True, blank=True, on_delete=models.SET_NULL, related_name="engine_calls"
    )
    trigger_seq = models.PositiveIntegerField(null=True, blank=True)
    reply_seq = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="the seq of the witness message that delivered the reply to trigger_seq (set once: a "
        "redelivered or re-asked task finds it and delivers nothing)",
    )
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.REPLY)
    attempt = models.PositiveSmallIntegerField(default=0)
    outcome = models.CharField(max_length=8, choices=Outcome.choices, db_index=True)
    transient = models.BooleanField(default=False)
    latency_ms = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True)
    public_error = models.CharField(
        max_length=500,
        blank=True,
        help_text="what the entry's owner may see of the error (a neutral category, never what answered)",
    )
    detail = models.CharField(max_length=200, blank=True, help_text="e.g. reply cleaned, learner pair used")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self):
        return f"{self.entry} {self.kind} {self.outcome} {self.latency_ms} ms"


class LearnerConsent(models.Model):
    """A participant agreed that what they type may be stored and replayed by learner bots.

    A question-answer pair is harvested only when both people in a conversation agreed (the
    interrogator who asked and the human witness who answered). Revoking deletes their pairs.
    """

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="learner_consent")
    agreed_at = models.DateTimeField()

    def __str__(self):
        return f"{self.user} donates since {self.agreed_at:%Y-%m-%d}"


class LearnedPair(models.Model):
    """A judge's question and the human witness's answer, scrubbed of personal details."""

    prompt = models.TextField()
    reply = models.TextField()
    prev_prompt = models.TextField(blank=True, help_text="The judge's previous question in that conversation.")
    conversation = models.ForeignKey(Conversation, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    reply_seq = models.PositiveIntegerField(null=True, blank=True)
    prompt_author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    reply_author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["conversation", "reply_seq"], name="learned_pair_once")]

    def __str__(self):
        return f"{self.prompt[:40]} → {self.reply[:40]}"


# --- entrants: sign-up approval, API keys ---------------------------------------------------------


class EntrantApplication(models.Model):
    """Someone signed up as an entrant; with ``ARENA_ENTRANT_APPROVAL`` on, an organiser approves them in
    the admin before they may register entries (approval adds them to the entrant group)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="entrant_application")
    about = models.CharField(max_length=500, blank=True, help_text="What the entrant says they will bring.")
    created_at = models.DateTimeField(auto_now_add=True)
    approved_at = models.DateTimeField(null=True, blank=True, db_index=True)
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return f"{self.user}: {'approved' if self.approved_at else 'pending'}"


class ApiKey(models.Model):
    """A named API token of one user. Only the SHA-256 of the key is stored: the key itself is shown once,
    when it is created (arena.services.apikeys); ``prefix`` (its first characters) tells keys apart."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_keys")
    name = models.CharField(max_length=60)
    prefix = models.CharField(max_length=16)
    key_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True, db_index=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = "API key"

    def __str__(self):
        return f"{self.name} ({self.prefix}…)"

    @property
    def active(self) -> bool:
        return self.revoked_at is None


# --- spectators: the delayed public view of a live interrogation -----------------------------------


class SpectatorFeed(models.Model):
    """An interrogation the public may watch, `delay_s` behind its judge (a crowd market on it, a
    contest's spectator page). Every read and every push of its messages waits until the message's
    stored `created_at` + `delay_s` (arena.spectators), so spectators never know more than the judge
    did `delay_s` seconds earlier and cannot feed them anything fresh."""

    interrogation = models.OneToOneField(Interrogation, on_delete=models.CASCADE, related_name="spectator_feed")
    delay_s = models.FloatField(default=60.0, help_text="Seconds spectators see the conversation behind its judge.")
    created_at = models.DateTimeField(auto_now_add=True)
    released = models.JSONField(
        default=dict,
        blank=True,
        help_text="The last message pushed to the spectators, per conversation: {conversation id: seq}.",
    )

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(delay_s__gte=0, delay_s__lte=3600), name="spectator_feed_delay_0_3600"),
        ]

    def __str__(self):
        return f"{self.interrogation}: {self.delay_s:g} s behind"
