"""The researcher's admin: a study is created from its JSON configuration (validated by the design
rules; the same as `manage.py study load`), opened and closed with list actions; participants, games,
flags and exclusions are read here, results and downloads are on the study's page."""

import json

from django import forms
from django.contrib import admin, messages
from django.urls import reverse
from django.utils.html import format_html

from arena.control_admin import ControlRoomAdmin
from core.errors import ArenaError
from studies import control, services
from studies.models import Condition, ConsentRecord, Exclusion, Flag, Game, Participant, Study, SurveyAnswer


class StudyCreateForm(forms.ModelForm):
    config_text = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 24, "cols": 100}),
        label="Configuration (JSON)",
        help_text='At least {"format", "minutes", "witnesses": [{"name", "engine", "settings"}], '
        '"human_witness_share", "games_per_participant", "seed"}.',
    )

    class Meta:
        model = Study
        fields = ["slug", "status"]

    def clean(self):
        data = super().clean()
        try:
            self.config = services.study_config_read(text=data.get("config_text", ""))
            services.study_config_validate(config=self.config)
        except ArenaError as exc:
            raise forms.ValidationError(str(exc)) from None
        return data


class ConditionInline(admin.TabularInline):
    model = Condition
    fields = ["index", "name", "label", "persona", "entry"]
    readonly_fields = fields
    extra = 0
    can_delete = False
    max_num = 0


@admin.register(Study)
class StudyAdmin(ControlRoomAdmin, admin.ModelAdmin):
    list_display = ["title", "slug", "status", "format", "minutes", "human_witness_share", "seed", "results"]
    list_filter = ["status", "format"]
    actions = ["open_studies", "close_studies"]
    inlines = [ConditionInline]
    readonly_fields = [
        "title",
        "format",
        "minutes",
        "max_message_chars",
        "strict_alternation",
        "human_witness_share",
        "games_per_participant",
        "games_per_day",
        "human_wait_s",
        "seed",
        "config_pretty",
        "tickets_issued",
        "pairs_formed",
        "ai_dealt",
        "fallbacks",
        "results",
    ]
    fields = ["slug", "status", *readonly_fields]

    def get_form(self, request, obj=None, **kwargs):
        if obj is None:
            kwargs["form"] = StudyCreateForm
        return super().get_form(request, obj, **kwargs)

    def get_fields(self, request, obj=None):
        return ["slug", "status", "config_text"] if obj is None else self.fields

    def get_readonly_fields(self, request, obj=None):
        return [] if obj is None else self.readonly_fields

    def get_inlines(self, request, obj):
        return [] if obj is None else self.inlines

    def save_model(self, request, obj, form, change):
        if change:  # never the lobby's counters, which the matcher moves meanwhile
            return obj.save(update_fields=["slug", "status"])
        study = services.study_load(config=form.config, slug=obj.slug, status=obj.status, owner=request.user)
        obj.__dict__.update(study.__dict__)  # the admin goes on with the study as created (its pk, its slug)

    @admin.display(description="configuration")
    def config_pretty(self, obj):
        return format_html("<pre>{}</pre>", json.dumps(obj.config, indent=2, ensure_ascii=False))

    @admin.display(description="results")
    def results(self, obj):
        return format_html('<a href="{}">results and downloads</a>', reverse("studies:detail", args=[obj.pk]))

    def _status_set(self, request, queryset, status):
        for study in queryset:
            try:
                services.study_status_set(study_id=study.pk, status=status)
            except ArenaError as exc:
                self.message_user(request, f"{study}: {exc}", messages.ERROR)
            else:
                self.message_user(request, f"{study}: {Study.Status(status).label}", messages.SUCCESS)

    @admin.action(description="Open on /play/")
    def open_studies(self, request, queryset):
        self._status_set(request, queryset, Study.Status.OPEN)

    @admin.action(description="Close")
    def close_studies(self, request, queryset):
        self._status_set(request, queryset, Study.Status.CLOSED)

    # the control room (arena.control_admin): its buttons are the two actions above, and the undo
    control_services = {
        "back_to_draft": lambda request, s: services.study_unopen(study_id=s.pk) and "back to draft",
    }

    def control_room(self, obj):
        return control.study_control(study=obj)

    def control_active(self):
        return Study.objects.exclude(status=Study.Status.CLOSED)


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Participant)
class ParticipantAdmin(ReadOnly):
    list_display = ["anon_id", "study", "stage", "fixed_role", "simulated", "created_at"]
    list_filter = ["study", "stage", "simulated"]
    exclude = ["player", "account", "device"]


@admin.register(Game)
class GameAdmin(ReadOnly):
    list_display = ["pk", "study", "interrogator", "human_witness", "condition", "fallback", "voided", "created_at"]
    list_filter = ["study", "voided", "fallback"]


@admin.register(Flag)
class FlagAdmin(ReadOnly):
    list_display = ["kind", "study", "participant", "game", "detail", "created_at"]
    list_filter = ["kind", "study"]


@admin.register(Exclusion)
class ExclusionAdmin(ReadOnly):
    list_display = ["participant", "rule", "detail", "created_at"]


admin.site.register(ConsentRecord, ReadOnly)
admin.site.register(SurveyAnswer, ReadOnly)
