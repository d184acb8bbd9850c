"""Organisers define experiments here, then launch, cancel, resume or clone them (admin actions)."""

from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils.html import format_html

from core.errors import ArenaError
from lambdastar import services
from lambdastar.models import Experiment, Run

EXAMPLE = {
    "rules": "paper",
    "rng": "pcg64",
    "episodes": 100,
    "types": ["random", "ls", "woc"],
    "iterations": 50,
    "sweep": {"grid": [5, 10], "agents": [1, 5]},
}


class RunInline(admin.TabularInline):
    model = Run
    extra = 0
    can_delete = False
    fields = [
        "index",
        "factors",
        "width",
        "height",
        "iterations",
        "agents",
        "observation_range",
        "complexity_min",
        "complexity_max",
        "coordination",
        "chunk_episodes",
    ]
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False


def _each(modeladmin, request, queryset, service, done: str, **kwargs):
    for experiment in queryset:
        try:
            service(experiment_id=experiment.pk, **kwargs)
        except (ArenaError, ValidationError) as exc:
            text = "; ".join(exc.messages) if isinstance(exc, ValidationError) else str(exc)
            modeladmin.message_user(request, f"{experiment}: {text}", messages.ERROR)
        else:
            modeladmin.message_user(request, f"{experiment}: {done}.", messages.SUCCESS)


@admin.action(description="Launch the selected drafts")
def launch(modeladmin, request, queryset):
    _each(modeladmin, request, queryset, services.experiment_launch, "queued")


@admin.action(description="Cancel the selected experiments (pending chunks are skipped)")
def cancel(modeladmin, request, queryset):
    _each(modeladmin, request, queryset, services.experiment_cancel, "cancelled")


@admin.action(description="Resume the selected experiments (queue their missing chunks)")
def resume(modeladmin, request, queryset):
    _each(modeladmin, request, queryset, services.experiment_resume, "missing chunks queued")


@admin.action(description="Clone the selected experiments as new drafts")
def clone(modeladmin, request, queryset):
    _each(modeladmin, request, queryset, services.experiment_clone, "cloned", owner=request.user)


@admin.register(Experiment)
class ExperimentAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "status", "total_episodes", "created_at", "finished_at", "page"]
    list_filter = ["status"]
    search_fields = ["name", "owner__username"]
    actions = [launch, cancel, resume, clone]
    inlines = [RunInline]
    fixed = [
        "owner",
        "status",
        "total_episodes",
        "error",
        "cloned_from",
        "created_at",
        "queued_at",
        "started_at",
        "finished_at",
        "page",
    ]

    def get_fields(self, request, obj=None):
        return ["name", "seed", "configuration", *self.fixed]

    def get_readonly_fields(self, request, obj=None):
        if obj is not None and obj.status != Experiment.Status.DRAFT:
            return ["seed", "configuration", *self.fixed]  # what ran stays what was configured
        return self.fixed

    def get_changeform_initial_data(self, request):
        return {"configuration": EXAMPLE, "seed": 0}

    def save_model(self, request, obj, form, change):
        if not change:
            obj.owner = request.user
        super().save_model(request, obj, form, change)

    @admin.display(description="page")
    def page(self, obj):
        if not obj.pk:
            return "–"
        return format_html(
            '<a href="{}">progress, plots, exports</a>', reverse("lambdastar:experiment_detail", args=[obj.pk])
        )
