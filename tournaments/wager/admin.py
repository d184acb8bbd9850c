"""The committee's admin: every change goes through a service, so it is validated and in the audit log."""

from django import forms
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from arena.control_admin import ControlRoomAdmin
from arena.models import Entry
from core.errors import ArenaError
from tournaments.wager import control, services
from tournaments.wager.models import (
    Aggregation,
    Amendment,
    AuditEntry,
    Ballot,
    Committee,
    CommitteeMember,
    DeadlockVote,
    Interview,
    Session,
    Trial,
)


class ServiceAdmin(admin.ModelAdmin):
    """Adds go through `create(request, form)`; nothing is deleted from the admin (the record is evidence)."""

    def has_delete_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        try:
            saved = self.apply(request, obj, form, change)
        except ArenaError as error:
            raise ValidationError(str(error)) from None
        if saved is not None:
            form.instance = saved
            obj.pk = saved.pk

    def save_related(self, request, form, formsets, change):
        pass

    def construct_change_message(self, request, form, formsets, add=False):
        """The inlines are shown, never saved here (``save_related``): the history speaks of the form only."""
        return super().construct_change_message(request, form, None, add)

    def _changeform_view(self, request, object_id, form_url, extra_context):
        try:
            return super()._changeform_view(request, object_id, form_url, extra_context)
        except ValidationError as error:
            self.message_user(request, " ".join(error.messages), messages.ERROR)
            from django.http import HttpResponseRedirect

            return HttpResponseRedirect(request.get_full_path())


class AddOnlyAdmin(ServiceAdmin):
    """Records that are evidence once made (members, amendments, votes, ballots): added, never changed."""

    def has_change_permission(self, request, obj=None):
        return obj is None and super().has_change_permission(request, obj)


class MemberInline(admin.TabularInline):
    model = CommitteeMember
    fields = ["name", "role", "appointed_by", "user", "appointed_at"]
    readonly_fields = fields
    extra = 0
    can_delete = False
    max_num = 0


class MemberForm(forms.ModelForm):
    class Meta:
        model = CommitteeMember
        fields = ["committee", "name", "role", "appointed_by", "user"]


@admin.register(Committee)
class CommitteeAdmin(ServiceAdmin):
    list_display = ["name", "created_at"]
    inlines = [MemberInline]

    def apply(self, request, obj, form, change):
        obj.save()
        services.audit_record(
            actor=request.user,
            action="committee.change" if change else "committee.create",
            detail={"committee": obj.name},
        )
        return obj


@admin.register(CommitteeMember)
class CommitteeMemberAdmin(AddOnlyAdmin):
    form = MemberForm
    list_display = ["name", "committee", "role", "appointed_by", "user"]
    autocomplete_fields = ["user"]

    def apply(self, request, obj, form, change):
        data = form.cleaned_data
        return services.committee_member_appoint(
            committee=data["committee"],
            name=data["name"],
            role=data["role"],
            appointed_by=data["appointed_by"],
            user=data.get("user"),
            by=request.user,
        )


class SessionForm(forms.ModelForm):
    judges = forms.ModelMultipleChoiceField(
        queryset=get_user_model().objects.all(), help_text="Three judges (J1–J3 in this order of id)."
    )
    foils = forms.ModelMultipleChoiceField(
        queryset=get_user_model().objects.all(), help_text="Three human foils, not known to the judges."
    )
    computer = forms.ModelChoiceField(queryset=Entry.objects.filter(active=True))

    class Meta:
        model = Session
        fields = [
            "committee",
            "title",
            "called_by",
            "called_by_kind",
            "funded_by",
            "computer",
            "trials_planned",
            "interview_minutes",
            "break_minutes",
            "aggregation",
            "starts_at",
            "rehearsal",
            "seed",
            "spectator_markets",
            "spectator_delay_s",
        ]


class AggregationForm(forms.ModelForm):
    class Meta:
        model = Session
        fields = ["aggregation"]


@admin.register(Session)
class SessionAdmin(ControlRoomAdmin, ServiceAdmin):
    list_display = [
        "title",
        "committee",
        "computer",
        "starts_at",
        "trials_planned",
        "interview_minutes",
        "aggregation",
        "rehearsal",
        "page",
    ]
    list_filter = ["rehearsal", "aggregation"]
    actions = ["publish"]

    def get_form(self, request, obj=None, **kwargs):
        kwargs["form"] = AggregationForm if obj is not None else SessionForm
        return super().get_form(request, obj, **kwargs)

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return []
        return [
            "committee",
            "title",
            "called_by",
            "called_by_kind",
            "funded_by",
            "computer",
            "trials_planned",
            "interview_minutes",
            "break_minutes",
            "starts_at",
            "rehearsal",
            "seed",
            "spectator_markets",
            "spectator_delay_s",
            "calendar",
        ]

    def get_fields(self, request, obj=None):
        if obj is None:
            return [*SessionForm.Meta.fields[:6], "judges", "foils", *SessionForm.Meta.fields[6:]]
        return [*self.get_readonly_fields(request, obj), "aggregation"]

    @admin.display(description="trials")
    def calendar(self, obj):
        url = reverse("admin:wager_interview_changelist")
        return format_html_join(
            " · ",
            '<a href="{}?trial__id__exact={}">trial {} ({})</a>',
            ((url, t.pk, t.number, f"{t.starts_at:%Y-%m-%d %H:%M}") for t in obj.trials.all()),
        )

    @admin.display(description="page")
    def page(self, obj):
        return format_html(
            '<a href="{}">session</a> · <a href="{}">report</a>',
            reverse("wager:session", args=[obj.pk]),
            reverse("wager:report", args=[obj.pk]),
        )

    def apply(self, request, obj, form, change):
        data = form.cleaned_data
        if change:
            return services.session_aggregation_set(session_id=obj.pk, aggregation=data["aggregation"], by=request.user)
        return services.session_create(
            committee=data["committee"],
            title=data["title"],
            computer=data["computer"],
            judges=sorted(data["judges"], key=lambda u: u.pk),
            foils=sorted(data["foils"], key=lambda u: u.pk),
            starts_at=data["starts_at"],
            called_by=data["called_by"],
            called_by_kind=data["called_by_kind"],
            funded_by=data["funded_by"],
            trials=data["trials_planned"],
            interview_minutes=data["interview_minutes"],
            break_minutes=data["break_minutes"],
            aggregation=data["aggregation"] or Aggregation.MAJORITY,
            rehearsal=data["rehearsal"],
            seed=data.get("seed") or "",
            spectator_markets=data["spectator_markets"],
            spectator_delay_s=data.get("spectator_delay_s"),
            by=request.user,
        )

    @admin.action(description="Publish the finished interviews' transcripts (anonymised)")
    def publish(self, request, queryset):
        for session in queryset:
            try:
                count = services.session_publish(session_id=session.pk, by=request.user)
            except ArenaError as error:
                self.message_user(request, f"{session}: {error}", messages.ERROR)
            else:
                self.message_user(request, f"{session}: {count} transcript(s) published.", messages.SUCCESS)

    def control_room(self, obj):  # the control room (arena.control_admin); its button is "publish" above
        return control.session_control(session=obj)


class MoveForm(forms.ModelForm):
    class Meta:
        fields = ["starts_at"]


@admin.register(Trial)
class TrialAdmin(ServiceAdmin):
    form = MoveForm
    list_display = ["session", "number", "starts_at"]
    list_filter = ["session"]
    readonly_fields = ["session", "number"]
    fields = ["session", "number", "starts_at"]

    def has_add_permission(self, request):
        return False

    def apply(self, request, obj, form, change):
        return services.trial_reschedule(trial_id=obj.pk, starts_at=form.cleaned_data["starts_at"], by=request.user)


@admin.register(Interview)
class InterviewAdmin(ServiceAdmin):
    form = MoveForm
    list_display = ["trial", "slot", "starts_at", "judge", "candidate", "status", "console"]
    list_filter = ["trial__session", "trial"]
    readonly_fields = ["trial", "slot", "judge", "candidate", "status", "console"]
    fields = ["trial", "slot", "judge", "candidate", "starts_at", "status", "console"]
    list_select_related = ["trial__session", "judge", "interrogation"]

    def has_add_permission(self, request):
        return False

    @admin.display(description="status")
    def status(self, obj):
        return obj.interrogation.status

    @admin.display(description="interrogation")
    def console(self, obj):
        return format_html(
            '<a href="{}">{}</a>',
            reverse("admin:arena_interrogation_change", args=[obj.interrogation_id]),
            obj.interrogation.public_id,
        )

    def apply(self, request, obj, form, change):
        return services.interview_move(interview_id=obj.pk, starts_at=form.cleaned_data["starts_at"], by=request.user)


class AmendmentForm(forms.ModelForm):
    class Meta:
        model = Amendment
        fields = ["committee", "session", "reason", "agreed_by", "agreed_names", "text"]


@admin.register(Amendment)
class AmendmentAdmin(AddOnlyAdmin):
    form = AmendmentForm
    list_display = ["pk", "committee", "session", "reason", "agreed_by", "agreed_names", "agreed_at"]

    def apply(self, request, obj, form, change):
        d = form.cleaned_data
        return services.amendment_record(
            committee=d["committee"],
            session=d.get("session"),
            reason=d["reason"],
            agreed_by=d["agreed_by"],
            agreed_names=d["agreed_names"],
            text=d["text"],
            by=request.user,
        )


class BallotInline(admin.TabularInline):
    model = Ballot
    fields = ["member", "choice", "cast_at"]
    readonly_fields = fields
    extra = 0
    can_delete = False
    max_num = 0


class VoteForm(forms.ModelForm):
    class Meta:
        model = DeadlockVote
        fields = ["committee", "session", "question"]


@admin.register(DeadlockVote)
class DeadlockVoteAdmin(AddOnlyAdmin):
    form = VoteForm
    list_display = ["pk", "committee", "question", "outcome", "opened_at", "decided_at"]
    inlines = [BallotInline]

    def apply(self, request, obj, form, change):
        d = form.cleaned_data
        return services.deadlock_vote_open(
            committee=d["committee"], session=d.get("session"), question=d["question"], by=request.user
        )


class BallotForm(forms.ModelForm):
    class Meta:
        model = Ballot
        fields = ["vote", "member", "choice"]


@admin.register(Ballot)
class BallotAdmin(AddOnlyAdmin):
    form = BallotForm
    list_display = ["vote", "member", "choice", "cast_at"]

    def apply(self, request, obj, form, change):
        d = form.cleaned_data
        vote = services.ballot_cast(vote_id=d["vote"].pk, member=d["member"], choice=d["choice"], by=request.user)
        return vote.ballots.get(member=d["member"])


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    """Read-only: the log is append-only (no add, change or delete here; the ORM and, on PostgreSQL, a
    trigger refuse changes too)."""

    list_display = ["at", "actor_name", "action", "session", "detail"]
    list_filter = ["action"]
    search_fields = ["actor_name", "action"]
    readonly_fields = ["at", "actor_name", "action", "session", "detail"]
    fields = readonly_fields

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
