"""Organisers start a game from the admin (a configuration, as the command takes) and read games."""

import json

from django import forms
from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html

from core.errors import ArenaError
from tables import services
from tables.models import Agent, Game
from tables.views import EXAMPLE, MAX_CONFIG_CHARS


class GameCreateForm(forms.ModelForm):
    configuration = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 20, "cols": 90}),
        max_length=MAX_CONFIG_CHARS,
        initial=json.dumps(EXAMPLE, indent=2),
        help_text="agents, judge (or null), seed, end_votes, max_turns; see the README",
    )

    class Meta:
        model = Game
        fields = []

    def clean_configuration(self):
        try:
            config = json.loads(self.cleaned_data["configuration"])
        except ValueError as exc:
            raise forms.ValidationError(f"not JSON: {exc}") from None
        try:  # the backends are checked here, so a refusal shows on the form
            self.prepared = services.game_prepare(config=config)
        except ArenaError as exc:
            raise forms.ValidationError(str(exc)) from None
        return self.prepared.config


class AgentInline(admin.TabularInline):
    model = Agent
    fields = ["position", "name", "entry"]
    readonly_fields = fields
    extra = 0
    can_delete = False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["__str__", "status", "outcome", "loser", "turns_played", "max_turns", "seed", "created_at", "page"]
    list_filter = ["status", "outcome"]
    inlines = [AgentInline]
    readonly_fields = [
        "title",
        "config",
        "seed",
        "order",
        "end_votes",
        "max_turns",
        "similarity_threshold",
        "partial_threshold",
        "judge",
        "status",
        "outcome",
        "loser",
        "turns_played",
        "created_by",
        "started_at",
        "ended_at",
        "page",
    ]

    @admin.display(description="page")
    def page(self, obj):
        return format_html('<a href="{}">watch</a>', reverse("tables:game", args=[obj.pk])) if obj.pk else ""

    def get_form(self, request, obj=None, **kwargs):
        if obj is None:
            kwargs["form"] = GameCreateForm
        return super().get_form(request, obj, **kwargs)

    def get_fieldsets(self, request, obj=None):
        if obj is None:
            return [(None, {"fields": ["configuration"]})]
        return super().get_fieldsets(request, obj)

    def get_readonly_fields(self, request, obj=None):
        return [] if obj is None else self.readonly_fields

    def get_inlines(self, request, obj):
        return self.inlines if obj is not None else []

    def save_model(self, request, obj, form, change):
        if change:
            return
        game = services.game_create(prepared=form.prepared, user=request.user)
        obj.pk = game.pk
        obj._state.adding = False
        obj.__dict__.update({k: v for k, v in game.__dict__.items() if not k.startswith("_")})
        services.game_start(game_id=game.pk)

    def save_related(self, request, form, formsets, change):
        if change:
            super().save_related(request, form, formsets, change)
