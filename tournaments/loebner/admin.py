"""The organisers' admin: contests (prize ladder, entries, participants inline), question sets,
qualifying answers (scoring 0/1/2), rounds with start/pause/resume/restart actions. Thin: actions call
services. The contest's actions that cannot be undone ask first (``irreversible_action``)."""

import copy

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html

from arena.control_admin import ControlRoomAdmin
from core.errors import ArenaError
from tournaments.loebner import control, selectors, services
from tournaments.loebner.forms import EntryForm
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


def _each(request, objects, call, done) -> None:
    """``call(obj)`` for each object; each refusal, and each success (``done``: text, or a function of the
    service's result), shown as a message naming the object."""
    for obj in objects:
        try:
            result = call(obj)
        except (ArenaError, ValueError) as exc:
            messages.error(request, f"{obj}: {exc}")
        else:
            messages.success(request, f"{obj}: {done(result) if callable(done) else done}")


def service_action(name: str, description: str, call, done: str):
    """An admin list action calling ``call(obj)`` (a service) for each selected object, each refusal
    shown as a message naming the object."""

    def action(modeladmin, request, queryset):
        _each(request, queryset, call, done)

    action.__name__ = name
    return admin.action(description=description)(action)


def irreversible_action(name: str, description: str, call, done, *, consequence: str, blockers=None, warnings=None):
    """An admin list action that cannot be undone, asked first. Choosing it changes nothing: a page
    says what will happen (``consequence``), that it cannot be undone, and each selected object with its
    own warnings, with Confirm and Cancel (as the admin's own delete does). Confirm posts the action
    again with ``post=yes``; then ``call(obj, confirmed)`` runs the service for each object, ``confirmed``
    being the warnings shown for that object (their keys), so the service hears only what the organiser
    read. ``blockers(obj)`` lists what the service would refuse; such an object is refused at once, by
    message, and not asked about. ``warnings(obj)`` gives ``[(key, text)]``."""

    def action(modeladmin, request, queryset):
        objects = []
        for obj in queryset:
            problems = blockers(obj) if blockers else []
            if problems:
                messages.error(request, f"{obj}: not done: {'; '.join(problems)}.")
            else:
                objects.append(obj)
        if not objects:
            return None
        if request.POST.get("post") == "yes":
            shown = [value.rpartition(":") for value in request.POST.getlist("confirmed")]
            _each(request, objects, lambda obj: call(obj, {key for key, _, pk in shown if pk == str(obj.pk)}), done)
            return None
        context = {
            **modeladmin.admin_site.each_context(request),
            "opts": modeladmin.model._meta,
            "title": f"{description}: are you sure?",
            "action_name": name,
            "description": description,
            "consequence": consequence,
            "items": [{"obj": obj, "warnings": warnings(obj) if warnings else []} for obj in objects],
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "admin/loebner/irreversible_confirm.html", context)

    action.__name__ = name
    return admin.action(description=description)(action)


def _close_warnings(contest) -> list[tuple[str, str]]:
    warning = selectors.contest_close_warning(contest=contest)
    final = selectors.contest_close_no_qualifying(contest=contest)
    return [("rollover", warning)] if warning else [("final", final)] if final else []


class ComplianceForm(EntryForm):
    """A contest entry edited in the admin (its people as rows, checked when saved: ``EntryForm``): its
    compliance is recorded by the entries service (``entry_check``), not by the form's own save, and the
    service's rule is checked here first so a refusal shows on the field."""

    def clean(self):
        cleaned = super().clean()
        wanted = cleaned.get("compliance")
        before = self.initial.get("compliance", ContestEntry.Check.PENDING)
        if wanted == ContestEntry.Check.PENDING and before != ContestEntry.Check.PENDING:
            self.add_error("compliance", "A checked entry cannot go back to “not checked yet”.")
        elif wanted == ContestEntry.Check.COMPLIANT and self.has_changed():
            item = copy.copy(self.instance)
            for field in ("entry", "people", "rights_statement", "under_18", "guardian_permission"):
                if field in cleaned:
                    setattr(item, field, cleaned[field])
            refusal = services.entry_compliance_refusal(item)
            if refusal:
                self.add_error("compliance", refusal)
        return cleaned

    def compliance_held(self):
        """Takes a compliance change out of this form's own save: ``(compliant, note)`` for ``entry_check``
        to record once the entry is saved, or None."""
        data = getattr(self, "cleaned_data", {})
        wanted = data.get("compliance")
        changed = {"compliance", "compliance_note"} & set(self.changed_data)
        if wanted in (None, ContestEntry.Check.PENDING) or not changed:
            return None
        self.instance.compliance = self.initial.get("compliance", ContestEntry.Check.PENDING)
        self.instance.compliance_note = self.initial.get("compliance_note", "")
        return wanted == ContestEntry.Check.COMPLIANT, data.get("compliance_note", "")


def compliance_record(request, entry, held) -> None:
    try:
        services.entry_check(contest_entry_id=entry.pk, compliant=held[0], note=held[1])
    except ArenaError as exc:
        messages.error(request, f"{entry}: compliance not recorded: {exc}")


class PrizeInline(admin.TabularInline):
    model = PrizeRow
    extra = 0


ENTRY_FIELDS = [
    ("entry", "entrant"),
    "received_at",
    "people",
    ("rights_statement", "under_18", "guardian_permission"),
    ("compliance", "compliance_note"),
    ("qualified", "finalist"),
]


class ContestEntryInline(admin.StackedInline):
    """Stacked, one entry under another, so that the contest's page fits a laptop and a phone."""

    model = ContestEntry
    form = ComplianceForm
    fields = ENTRY_FIELDS
    readonly_fields = ["received_at", "qualified", "finalist"]
    show_change_link = True
    extra = 0


class ParticipantInline(admin.TabularInline):
    model = Participant
    extra = 0


SCHEDULE_CONSEQUENCE = (
    "Every round and meeting of the final is stored, each with its interrogation: the judges and confederates "
    "are seated for good and can no longer be changed."
)


@admin.action(description="Build the schedule (judges and confederates as given in Participants)")
def build_schedule(modeladmin, request, queryset):
    """Asked first, as the other actions that cannot be undone, showing for each contest what each format
    becomes for its people (``selectors.schedule_previews``): its rounds, the meetings in each and who sits
    out, a warning when someone would sit idle, and the formats to choose from, those that keep everyone
    busy first. Confirm builds each contest's chosen format (``schedule_create``)."""
    contests = []
    for contest in queryset:
        problems = selectors.schedule_build_problems(contest=contest)
        if problems:
            messages.error(request, f"{contest}: not done: {'; '.join(problems)}.")
        else:
            contests.append(contest)
    if not contests:
        return None
    if request.POST.get("post") == "yes":
        chosen = {c.pk: request.POST.get(f"format-{c.pk}") or None for c in contests}

        def build(contest):
            return services.schedule_create(contest_id=contest.pk, format_name=chosen[contest.pk])

        _each(request, contests, build, lambda rounds: f"schedule built ({len(rounds)} rounds)")
        return None
    context = {
        **modeladmin.admin_site.each_context(request),
        "opts": modeladmin.model._meta,
        "title": "Build the schedule: are you sure?",
        "action_name": "build_schedule",
        "description": "Build the schedule",
        "consequence": SCHEDULE_CONSEQUENCE,
        "items": [selectors.schedule_choice(contest=c) for c in contests],
        "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
    }
    return TemplateResponse(request, "admin/loebner/schedule_confirm.html", context)


@admin.register(Contest)
class ContestAdmin(ControlRoomAdmin, admin.ModelAdmin):
    list_display = ["name", "format_name", "status", "closes_at", "contest_day", "links"]
    list_filter = ["status", "format_name"]
    inlines = [PrizeInline, ContestEntryInline, ParticipantInline]
    actions = [
        service_action(
            "open_for_entries", "Open for entries", lambda c: services.contest_open(contest_id=c.pk), "open"
        ),
        irreversible_action(
            "close_entries",
            "Close entries (first compliant entries go to qualifying; roll-over / single entry rules)",
            lambda c, confirmed: services.contest_close(contest_id=c.pk, confirm_rollover="rollover" in confirmed),
            lambda c: f"entries closed: {c.get_status_display()}",
            consequence=(
                "Closing ends the contest's entry period: no entry is received after it. The first compliant "
                "entries by receipt go to qualifying; a single compliant entry receives the prize without a "
                "contest; with none, the prize rolls over."
            ),
            warnings=_close_warnings,
        ),
        service_action(
            "ask_qualifying",
            "Ask the qualifying questions (all entries at once)",
            lambda c: services.qualifying_start(contest_id=c.pk),
            "qualifying started",
        ),
        irreversible_action(
            "pick_finalists",
            "Pick the finalists from the qualifying scores",
            lambda c, confirmed: services.finalists_pick(contest_id=c.pk),
            "finalists picked",
            consequence=(
                "The top entries by qualifying score become the finalists E1, E2, … in rank order and the "
                "contest moves to its finals: qualifying is over."
            ),
        ),
        build_schedule,
        irreversible_action(
            "publish",
            "Publish the results and every transcript together",
            lambda c, confirmed: services.contest_publish(contest_id=c.pk),
            lambda count: f"published, with {count} transcript{'s' if count != 1 else ''}",
            consequence=(
                "Every meeting's transcript becomes public, naming its judge, entry and confederate; the "
                "contest is marked results published and its judges can no longer give ranks."
            ),
            blockers=lambda c: selectors.contest_publish_problems(contest=c),
        ),
    ]

    readonly_fields = ["format_preview", "tie_winner", "tie_decided_by", "tie_decided_at"]  # the tie: a service's
    fieldsets = [
        (None, {"fields": ["name", "status", "format_name", "format_preview", "seed"]}),
        ("Calendar", {"fields": ["opens_at", "closes_at", "contest_day"]}),
        (
            "Rounds",
            {"fields": [("round_minutes", "review_minutes", "break_minutes"), "rounds_follow_on", "keystroke_mode"]},
        ),
        (
            "Entries and qualifying",
            {"fields": [("qualifying_limit", "finalists"), "question_set", "qualifying_scoring", "rolls_into"]},
        ),
        ("Spectators", {"fields": ["spectator_markets", "spectator_delay_s"]}),  # markets.SpectatorOptions
        (
            "A tie left to the organiser",
            {"fields": ["tie_winner", "tie_decided_by", "tie_decided_at"], "classes": ["collapse"]},
        ),
    ]

    class Media:
        css = {"all": ["loebner/admin.css"]}  # the contest's page fits a laptop and a phone

    @admin.display(description="What the format becomes")
    def format_preview(self, contest):
        """The contest's format for its people (the rules' preview), and one that keeps everyone busy."""
        if contest.pk is None:
            return "Save the contest to see what its format becomes for its finalists, judges and confederates."
        return selectors.schedule_preview_text(contest=contest)

    def save_formset(self, request, form, formset, change):
        """An entry's compliance changed in the inline goes through ``entry_check``."""
        held = []
        if formset.model is ContestEntry:
            deleted = set(map(id, formset.deleted_forms))
            held = [(f, f.compliance_held()) for f in formset.forms if id(f) not in deleted and f.has_changed()]
        super().save_formset(request, form, formset, change)
        for entry_form, compliance in held:
            if compliance:
                compliance_record(request, entry_form.instance, compliance)

    @admin.display(description="pages")
    def links(self, contest):
        return format_html(
            '<a href="{}">results</a> · <a href="{}">board</a> · <a href="{}">qualifying</a>',
            reverse("loebner:results", args=[contest.pk]),
            reverse("loebner:board", args=[contest.pk]),
            reverse("loebner:qualifying", args=[contest.pk]),
        )

    # --- the control room (arena.control_admin): the page, its link in the list and on the change page --
    # Its buttons run this admin's list actions above (and the entries' and rounds'), by name.
    control_services = {
        "back_to_draft": lambda request, c: services.contest_unopen(contest_id=c.pk) and "back to draft",
        "reopen_entries": lambda request, c: services.contest_reopen(contest_id=c.pk) and "entries open again",
    }

    def control_room(self, obj):
        return control.contest_control(contest=obj)

    def control_active(self):
        ended = [Contest.Status.DONE, Contest.Status.ROLLED_OVER, Contest.Status.SINGLE]
        return Contest.objects.exclude(status__in=ended)


@admin.register(ContestEntry)
class ContestEntryAdmin(admin.ModelAdmin):
    list_display = ["entry", "contest", "received_at", "statements_ok", "compliance", "qualified", "finalist"]
    list_filter = ["contest", "compliance", "qualified", "finalist"]
    form = ComplianceForm
    readonly_fields = ["received_at"]  # the server's
    fieldsets = [
        (None, {"fields": ["contest", ("entry", "entrant"), "received_at"]}),
        ("People", {"fields": ["people"]}),
        ("Statements", {"fields": ["rights_statement", "under_18", "guardian_permission"]}),
        ("Compliance", {"fields": ["compliance", "compliance_note", ("qualified", "finalist")]}),
    ]

    def save_model(self, request, obj, form, change):
        """A compliance changed here goes through ``entry_check``, as the actions do."""
        held = form.compliance_held()
        super().save_model(request, obj, form, change)
        if held:
            compliance_record(request, obj, held)

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
