"""The organisers' admin: contests (prize ladder, entries, participants inline), question sets,
qualifying answers (scoring 0/1/2), rounds with start/pause/resume/restart actions. Thin: actions call
services."""
from django.contrib import admin, messages
from django.urls import reverse
from django.utils.html import format_html

from core.errors import ArenaError
from tournaments.loebner import services
from tournaments.loebner.models import (
    Contest, ContestEntry, JudgeRank, Judgment, Meeting, Participant, PrizeRow, QualifyingAnswer, QualifyingSubject,
    Question, QuestionSet, Round,
)


def _run(request, action, objects, label):
    for obj in objects:
        try:
            action(obj)
        except (ArenaError, ValueError) as exc:
            messages.error(request, f"{obj}: {exc}")
        else:
            messages.success(request, f"{obj}: {label}")


class PrizeInline(admin.TabularInline):
    model = PrizeRow
    extra = 0


class ContestEntryInline(admin.TabularInline):
    model = ContestEntry
    fields = ["entry", "entrant", "received_at", "people", "rights_statement", "under_18", "guardian_permission",
              "compliance", "compliance_note", "qualified", "finalist"]
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
    actions = ["open_for_entries", "close_entries", "ask_qualifying", "pick_finalists", "build_schedule", "publish"]

    @admin.display(description="pages")
    def links(self, contest):
        return format_html('<a href="{}">results</a> · <a href="{}">board</a> · <a href="{}">qualifying</a>',
                           reverse("loebner:results", args=[contest.pk]), reverse("loebner:board", args=[contest.pk]),
                           reverse("loebner:qualifying", args=[contest.pk]))

    @admin.action(description="Open for entries")
    def open_for_entries(self, request, queryset):
        _run(request, lambda c: services.contest_open(contest_id=c.pk), queryset, "open")

    @admin.action(description="Close entries (first compliant entries go to qualifying; roll-over / single entry rules)")
    def close_entries(self, request, queryset):
        _run(request, lambda c: services.contest_close(contest_id=c.pk), queryset, "closed")

    @admin.action(description="Ask the qualifying questions (all entries at once)")
    def ask_qualifying(self, request, queryset):
        _run(request, lambda c: services.qualifying_start(contest_id=c.pk), queryset, "qualifying started")

    @admin.action(description="Pick the finalists from the qualifying scores")
    def pick_finalists(self, request, queryset):
        _run(request, lambda c: services.finalists_pick(contest_id=c.pk), queryset, "finalists picked")

    @admin.action(description="Publish the results and every transcript together")
    def publish(self, request, queryset):
        _run(request, lambda c: services.contest_publish(contest_id=c.pk), queryset, "published")

    @admin.action(description="Build the schedule (judges and confederates as given in Participants)")
    def build_schedule(self, request, queryset):
        _run(request, lambda c: services.schedule_create(contest_id=c.pk), queryset, "schedule built")


@admin.register(ContestEntry)
class ContestEntryAdmin(admin.ModelAdmin):
    list_display = ["entry", "contest", "received_at", "statements_ok", "compliance", "qualified", "finalist"]
    list_filter = ["contest", "compliance", "qualified", "finalist"]
    actions = ["mark_compliant", "mark_refused"]

    @admin.action(description="Compliance check: compliant")
    def mark_compliant(self, request, queryset):
        _run(request, lambda e: services.entry_check(contest_entry_id=e.pk, compliant=True), queryset, "compliant")

    @admin.action(description="Compliance check: not compliant")
    def mark_refused(self, request, queryset):
        _run(request, lambda e: services.entry_check(contest_entry_id=e.pk, compliant=False), queryset, "refused")


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
    actions = ["start", "pause", "resume", "finish", "restart"]

    @admin.action(description="Start the round")
    def start(self, request, queryset):
        _run(request, lambda r: services.round_start(round_id=r.pk), queryset, "started")

    @admin.action(description="Pause the round (its clock stops)")
    def pause(self, request, queryset):
        _run(request, lambda r: services.round_pause(round_id=r.pk), queryset, "paused")

    @admin.action(description="Resume the round")
    def resume(self, request, queryset):
        _run(request, lambda r: services.round_resume(round_id=r.pk), queryset, "resumed")

    @admin.action(description="End the talking now (the review period follows)")
    def finish(self, request, queryset):
        _run(request, lambda r: services.round_finish(round_id=r.pk), queryset, "talk ended")

    @admin.action(description="Restart the round (fresh interrogations; the old ones are kept, aborted)")
    def restart(self, request, queryset):
        _run(request, lambda r: services.round_restart(round_id=r.pk), queryset, "restarted")


admin.site.register(Judgment)
admin.site.register(JudgeRank)
