from django import forms
from django.contrib import admin
from django.utils.html import format_html_join

from lpp.models import BridgeLink, BridgeStatus, ImportedTranscript, Lpp2Contest, Lpp2Identity, Lpp2Problem, Lpp2Score


@admin.register(ImportedTranscript)
class ImportedTranscriptAdmin(admin.ModelAdmin):
    list_display = ["file_name", "index", "interrogation", "imported_at"]
    search_fields = ["file_name", "sha256"]
    readonly_fields = ["interrogation", "file_name", "sha256", "index", "problems", "imported_at"]


@admin.register(BridgeStatus)
class BridgeStatusAdmin(admin.ModelAdmin):
    list_display = ["entry", "state", "last_seen", "last_output_at", "last_error_at", "last_error"]
    list_filter = ["state"]
    readonly_fields = ["entry", "state", "last_error", "last_error_at", "last_seen", "last_output_at", "command"]


@admin.register(BridgeLink)
class BridgeLinkAdmin(admin.ModelAdmin):
    list_display = ["conversation", "judge_seq", "posted_keystroke_seq", "updated_at"]
    raw_id_fields = ["conversation"]


class Lpp2IdentityForm(forms.ModelForm):
    new_secret = forms.CharField(
        required=False,
        max_length=100,
        widget=forms.PasswordInput(render_value=False),
        help_text="Set this identity's secret (stored hashed; leave empty to keep it).",
    )

    class Meta:
        model = Lpp2Identity
        fields = ["lpp2", "name", "participant"]

    def clean(self):
        data = super().clean()
        if not self.instance.pk and not data.get("new_secret"):
            raise forms.ValidationError("A new identity needs a secret.")
        return data

    def save(self, commit=True):
        identity = super().save(commit=False)
        if self.cleaned_data.get("new_secret"):
            identity.secret_set(self.cleaned_data["new_secret"])
        if commit:
            identity.save()
        return identity


class Lpp2IdentityInline(admin.TabularInline):
    model = Lpp2Identity
    form = Lpp2IdentityForm
    extra = 0
    raw_id_fields = ["participant"]


@admin.register(Lpp2Contest)
class Lpp2ContestAdmin(admin.ModelAdmin):
    list_display = ["contest", "driver", "round_number", "active"]
    list_filter = ["driver", "active"]
    raw_id_fields = ["contest"]
    readonly_fields = ["ranking_pages"]
    inlines = [Lpp2IdentityInline]

    @admin.display(description="Judges' ranking pages")
    def ranking_pages(self, obj):
        """Each judge's signed ranking address (sent to the judge's page after the last round): the
        organiser opens it to give a judge's final ranks on their behalf."""
        from lpp.lpp2.selectors import rank_paths

        if obj is None or obj.pk is None:
            return "-"
        return format_html_join("", '<p>{}: <a href="{}">{}</a></p>', ((n, p, p) for n, p in rank_paths(obj).items()))


@admin.register(Lpp2Score)
class Lpp2ScoreAdmin(admin.ModelAdmin):
    list_display = ["lpp2", "round_number", "judge", "robot", "final_score", "scored_at"]
    list_filter = ["lpp2"]


@admin.register(Lpp2Problem)
class Lpp2ProblemAdmin(admin.ModelAdmin):
    """The rounds' problems: every refused event with its reason, and every entry's line stored as a line
    to its partner though addressed to someone else."""

    list_display = ["round_number", "at", "kind", "event", "sender", "to", "chars", "reason"]
    list_filter = ["lpp2", "round_number", "kind", "event"]
    search_fields = ["sender", "to", "reason"]
    readonly_fields = ["lpp2", "round_number", "kind", "event", "sender", "to", "chars", "reason", "at"]

    def has_add_permission(self, request):
        return False
