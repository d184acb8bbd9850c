from django import forms
from django.contrib import admin

from lpp.models import BridgeLink, BridgeStatus, ImportedTranscript, Lpp2Contest, Lpp2Identity, Lpp2Score


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
    inlines = [Lpp2IdentityInline]


@admin.register(Lpp2Score)
class Lpp2ScoreAdmin(admin.ModelAdmin):
    list_display = ["lpp2", "round_number", "judge", "robot", "final_score", "scored_at"]
    list_filter = ["lpp2"]
