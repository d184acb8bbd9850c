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
        default=0, help_text="Keystroke mode: last interrogator keystroke written to the program.")
    posted_keystroke_seq = models.PositiveIntegerField(
        default=0, help_text="Last program keystroke that is part of a posted witness message.")
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
