"""The organisers' admin: contests (prize ladder, entries, participants inline), question sets,
qualifying answers (scoring 0/1/2), rounds with start/pause/resume/restart actions. Thin: actions call
services."""

from django.contrib import admin, messages
from django.urls import reverse
from django.utils.html import format_html

from core.errors import ArenaError
from tournaments.loebner import services
from tournaments.loebner.models import (
    Contest,
    ContestEntry,
    JudgeRank,
    Judgment,
    Meeting,
    Participant,
    PrizeRow,
    QualifyingAnswer,
    QualifyingSubject,
    Question,
    QuestionSet,
    Round,
)


def service_action(name: str, description: str, call, done: str):
    """An admin list action calling ``call(obj)`` (a service) for each selected object, each refusal
    shown as a message naming the object."""

    def action(modeladmin, request, queryset):
        for obj in queryset:
            try:
                call(obj)
            except (ArenaError, ValueError) as exc:
                messages.error(request, f"{obj}: {exc}")
            else:
                messages.success(request, f"{obj}: {done}")

    action.__name__ = name
    return admin.action(description=description)(action)


class PrizeInline(admin.TabularInline):
    model = PrizeRow
    extra = 0


class ContestEntryInline(admin.TabularInline):
    model = ContestEntry
    fields = [
        "entry",
        "entrant",
        "received_at",
        "people",
        "rights_statement",
        "under_18",
        "guardian_permission",
        "compliance",
        "compliance_note",
        "qualified",
        "finalist",
    ]
    readonly_fields = ["qualified", "finalist"]
    extra = 0


class ParticipantInline(admin.TabularInline):
    model = Participant
    extra = 0


@admin.register(Contest)
class ContestAdmin(admin.ModelAdmin):
    list_display = ["name", "format_name", "status", "closes_at", "contest_day", "links"]
    list_filter = ["status", "format_name"]
    inlines = [PrizeInline, ContestEntryInline, ParticipantInline]
    actions = [
        service_action(
            "open_for_entries", "Open for entries", lambda c: services.contest_open(contest_id=c.pk), "open"
        ),
        service_action(
            "close_entries",
            "Close entries (first compliant entries go to qualifying; roll-over / single entry rules)",
            lambda c: services.contest_close(contest_id=c.pk),
            "closed",
        ),
        service_action(
            "ask_qualifying",
            "Ask the qualifying questions (all entries at once)",
            lambda c: services.qualifying_start(contest_id=c.pk),
            "qualifying started",
        ),
        service_action(
            "pick_finalists",
            "Pick the finalists from the qualifying scores",
            lambda c: services.finalists_pick(contest_id=c.pk),
            "finalists picked",
        ),
        service_action(
            "build_schedule",
            "Build the schedule (judges and confederates as given in Participants)",
            lambda c: services.schedule_create(contest_id=c.pk),
            "schedule built",
        ),
        service_action(
            "publish",
            "Publish the results and every transcript together",
            lambda c: services.contest_publish(contest_id=c.pk),
            "published",
        ),
    ]

    readonly_fields = ["tie_winner", "tie_decided_by", "tie_decided_at"]  # named on the results page (a service)

    def get_fields(self, request, obj=None):  # the crowd-market switch (markets.SpectatorOptions) last
        spectators = ["spectator_markets", "spectator_delay_s"]
        return [f for f in super().get_fields(request, obj) if f not in spectators] + spectators

    @admin.display(description="pages")
    def links(self, contest):
        return format_html(
            '<a href="{}">results</a> · <a href="{}">board</a> · <a href="{}">qualifying</a>',
            reverse("loebner:results", args=[contest.pk]),
            reverse("loebner:board", args=[contest.pk]),
            reverse("loebner:qualifying", args=[contest.pk]),
        )


@admin.register(ContestEntry)
class ContestEntryAdmin(admin.ModelAdmin):
    list_display = ["entry", "contest", "received_at", "statements_ok", "compliance", "qualified", "finalist"]
    list_filter = ["contest", "compliance", "qualified", "finalist"]
    actions = [
        service_action(
            "mark_compliant",
            "Compliance check: compliant",
            lambda e: services.entry_check(contest_entry_id=e.pk, compliant=True),
            "compliant",
        ),
        service_action(
            "mark_refused",
            "Compliance check: not compliant",
            lambda e: services.entry_check(contest_entry_id=e.pk, compliant=False),
            "refused",
        ),
    ]


class QuestionInline(admin.TabularInline):
    model = Question
    extra = 0


@admin.register(QuestionSet)
class QuestionSetAdmin(admin.ModelAdmin):
    inlines = [QuestionInline]


class AnswerInline(admin.TabularInline):
    model = QualifyingAnswer
    fields = ["question", "asked_text", "text", "ok", "latency_ms", "score"]
    readonly_fields = ["question", "asked_text", "latency_ms", "ok"]
    extra = 0


@admin.register(QualifyingSubject)
class QualifyingSubjectAdmin(admin.ModelAdmin):
    list_display = ["__str__", "contest", "status", "started_at", "finished_at"]
    list_filter = ["contest", "status"]
    inlines = [AnswerInline]


class MeetingInline(admin.TabularInline):
    model = Meeting
    fields = ["judge", "entry", "confederate", "left", "interrogation"]
    readonly_fields = fields
    extra = 0
    can_delete = False


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["__str__", "status", "started_at", "paused_at", "restarts"]
    list_filter = ["contest", "status"]
    inlines = [MeetingInline]
    actions = [
        service_action("start", "Start the round", lambda r: services.round_start(round_id=r.pk), "started"),
        service_action(
            "pause", "Pause the round (its clock stops)", lambda r: services.round_pause(round_id=r.pk), "paused"
        ),
        service_action("resume", "Resume the round", lambda r: services.round_resume(round_id=r.pk), "resumed"),
        service_action(
            "finish",
            "End the talking now (the review period follows)",
            lambda r: services.round_finish(round_id=r.pk),
            "talk ended",
        ),
        service_action(
            "restart",
            "Restart the round (fresh interrogations; the old ones are kept, aborted)",
            lambda r: services.round_restart(round_id=r.pk),
            "restarted",
        ),
    ]


admin.site.register(Judgment)
admin.site.register(JudgeRank)
