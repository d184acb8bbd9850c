"""Django side of the LPP package: where each imported transcript came from, and the bridge's
persisted progress and health. Keystrokes themselves are `arena.Keystroke` rows (shared with the
browser consoles' keystroke mode)."""

from django.db import models

from arena.models import Conversation, Entry, Interrogation


class ImportedTranscript(models.Model):
    """The source of an imported interrogation; (sha256, index) makes a re-import a no-op."""

    interrogation = models.OneToOneField(Interrogation, on_delete=models.CASCADE, related_name="lpp_source")
    file_name = models.CharField(max_length=255)
    sha256 = models.CharField(max_length=64)
    index = models.PositiveIntegerField(help_text="Which session of the file (most files hold one).")
    problems = models.TextField(blank=True, help_text="What the lenient log reader reported.")
    imported_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["sha256", "index"], name="lpp_import_source_unique")]

    def __str__(self):
        return f"{self.file_name} #{self.index}"


class BridgeLink(models.Model):
    """The bridge's progress in one conversation, so that a restart neither re-sends nor loses."""

    conversation = models.OneToOneField(Conversation, on_delete=models.CASCADE, related_name="lpp_link")
    judge_seq = models.PositiveIntegerField(default=0, help_text="Last interrogator message written as keys.")
    judge_keystroke_seq = models.PositiveIntegerField(
        default=0, help_text="Keystroke mode: last interrogator keystroke written to the program."
    )
    posted_keystroke_seq = models.PositiveIntegerField(
        default=0, help_text="Last program keystroke that is part of a posted witness message."
    )
    updated_at = models.DateTimeField(auto_now=True)


class BridgeStatus(models.Model):
    """How a bridged entry program is doing, for the organiser (never shown to a judge)."""

    class State(models.TextChoices):
        IDLE = "idle", "idle (no running conversation)"
        OK = "ok", "ok"
        SILENT = "silent", "silent (no answer in time)"
        CRASHED = "crashed", "crashed (program exited)"
        STOPPED = "stopped", "stopped (bridge not running)"

    entry = models.OneToOneField(Entry, on_delete=models.CASCADE, related_name="lpp_bridge_status")
    state = models.CharField(max_length=10, choices=State.choices, default=State.IDLE)
    last_error = models.TextField(blank=True)
    last_error_at = models.DateTimeField(null=True, blank=True)
    last_seen = models.DateTimeField(null=True, blank=True, help_text="Last step of the bridge (heartbeat).")
    last_output_at = models.DateTimeField(null=True, blank=True, help_text="Last key the program wrote.")
    command = models.TextField(blank=True)

    class Meta:
        verbose_name = "LPP bridge status"
        verbose_name_plural = "LPP bridge statuses"

    def __str__(self):
        return f"{self.entry}: {self.state}"


class Lpp2Contest(models.Model):
    """A Loebner contest served over LPP2 (socket.io): who drives its rounds, and the control panel's
    current round (0-based, as the reference counts; -1 before the first ``newRound``)."""

    class Driver(models.TextChoices):
        PANEL = "panel", "the control panel (newRound / startRound / endRound)"
        SCHEDULE = "schedule", "the platform's schedule (the organiser's board)"

    contest = models.OneToOneField("loebner.Contest", on_delete=models.CASCADE, related_name="lpp2")
    driver = models.CharField(max_length=10, choices=Driver.choices, default=Driver.PANEL)
    round_number = models.SmallIntegerField(default=-1, help_text="The panel's round, 0-based; -1 before the first.")
    active = models.BooleanField(default=True, help_text="The contest that /socket.io/ serves (one at a time).")

    class Meta:
        verbose_name = "LPP2 contest"
        constraints = [
            models.UniqueConstraint(fields=["active"], condition=models.Q(active=True), name="lpp2_one_active")
        ]

    def __str__(self):
        return f"LPP2: {self.contest}"


class Lpp2Identity(models.Model):
    """One LPP2 name (judge0…, ai0…, conf0…, CONTROLLER, webcast) of a contest, its participant and its
    secret, stored salted and hashed (the organiser sets a new one in the admin)."""

    lpp2 = models.ForeignKey(Lpp2Contest, on_delete=models.CASCADE, related_name="identities")
    name = models.CharField(max_length=20)
    participant = models.ForeignKey(
        "loebner.Participant", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    salt = models.CharField(max_length=32, editable=False)
    secret_hash = models.CharField(max_length=64, editable=False)

    class Meta:
        ordering = ["lpp2", "name"]
        verbose_name = "LPP2 identity"
        verbose_name_plural = "LPP2 identities"
        constraints = [models.UniqueConstraint(fields=["lpp2", "name"], name="lpp2_name_once")]

    def __str__(self):
        return f"{self.name} ({self.participant.label if self.participant_id else 'no participant'})"

    @staticmethod
    def _digest(salt: str, secret: str) -> str:
        import hashlib

        return hashlib.sha256(f"{salt}:{secret}".encode()).hexdigest()

    def secret_set(self, secret: str) -> None:
        import secrets as _secrets

        self.salt = _secrets.token_hex(16)
        self.secret_hash = self._digest(self.salt, secret)

    def secret_matches(self, secret: str) -> bool:
        import hmac

        return hmac.compare_digest(self._digest(self.salt, secret), self.secret_hash)


class Lpp2Score(models.Model):
    """A judge's robot pick (``score``) for one round, and its final humanness score (``finalScore``)."""

    lpp2 = models.ForeignKey(Lpp2Contest, on_delete=models.CASCADE, related_name="scores")
    round_number = models.SmallIntegerField(help_text="0-based, as the reference counts.")
    judge = models.CharField(max_length=20)
    robot = models.CharField(max_length=20, blank=True)
    final_score = models.PositiveSmallIntegerField(null=True, blank=True, help_text="4 most human … 1 least.")
    scored_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["lpp2", "round_number", "judge"]
        constraints = [models.UniqueConstraint(fields=["lpp2", "round_number", "judge"], name="lpp2_score_once")]


class Lpp2Socket(models.Model):
    """A connected, registered socket (any daphne process), for the control panel's connected clients."""

    lpp2 = models.ForeignKey(Lpp2Contest, on_delete=models.CASCADE, related_name="sockets")
    name = models.CharField(max_length=20)
    sid = models.CharField(max_length=64, unique=True)
    seen_at = models.DateTimeField(auto_now=True)


class Lpp2Problem(models.Model):
    """What went wrong with one LPP2 event, for the organiser: a refusal (with its reason, also sent to
    the sender), or an entry's line addressed to someone else and stored as a line to its partner."""

    class Kind(models.TextChoices):
        REFUSED = "refused", "refused"
        READDRESSED = "readdressed", "readdressed to the partner"

    lpp2 = models.ForeignKey(Lpp2Contest, on_delete=models.CASCADE, related_name="problems")
    round_number = models.SmallIntegerField(help_text="0-based, as the reference counts; -1 before the first round.")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    event = models.CharField(max_length=20, help_text="The socket.io event: message, control, score, …")
    sender = models.CharField(max_length=40, blank=True, help_text="The id the client gave (cut to 40 characters).")
    to = models.CharField(max_length=40, blank=True, help_text="The partner the client named (cut to 40 characters).")
    chars = models.PositiveIntegerField(null=True, blank=True, help_text="The length of the line's content.")
    reason = models.CharField(max_length=300)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["lpp2", "round_number", "at", "pk"]
        indexes = [models.Index(fields=["lpp2", "round_number"], name="lpp2_problem_round")]

    def __str__(self):
        return f"round {self.round_number} {self.kind} {self.event} from {self.sender}: {self.reason}"
