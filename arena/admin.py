from django import forms
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils.html import format_html

from arena import roles, services
from arena.models import (
    EXTERNAL_ENGINES,
    ApiKey,
    Conversation,
    EngineCall,
    EntrantApplication,
    Entry,
    EntryHealth,
    Interrogation,
    Keystroke,
    LearnedPair,
    Message,
    Status,
    Verdict,
)
from arena.services.breaker import entry_health_reset
from arena.services.engines import engine_choices_list, entry_probe
from arena.services.entries import entry_settings_clean, settings_masked, settings_unmasked
from core.errors import ArenaError


def entry_engine_choices():
    return [*engine_choices_list(), *EXTERNAL_ENGINES.items()]


class EntryForm(forms.ModelForm):
    engine = forms.ChoiceField(choices=entry_engine_choices)

    class Meta:
        model = Entry
        fields = ["display_name", "owner", "engine", "settings", "active"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk:  # secrets (api keys, webhook secrets) are never sent back to a browser
            self.initial["settings"] = settings_masked(self.instance.engine, self.instance.settings)

    def clean(self):
        data = super().clean()
        if self.instance.pk and "settings" in data:
            data["settings"] = settings_unmasked(data.get("engine", ""), data["settings"], self.instance.settings)
        if "engine" in data and "settings" in data:
            data["settings"] = entry_settings_clean(engine=data["engine"], settings=data["settings"])
        return data


class EngineCallInline(admin.TabularInline):
    model = EngineCall
    fields = ["created_at", "kind", "subject", "conversation", "attempt", "outcome", "latency_ms", "error", "detail"]
    readonly_fields = fields
    extra = 0
    max_num = 0
    can_delete = False
    verbose_name_plural = "recent engine calls (all of them: Engine calls in the menu)"

    def get_queryset(self, request):
        qs = super().get_queryset(request)
        recent = qs.order_by("-pk").values_list("pk", flat=True)[:20]
        return qs.filter(pk__in=list(recent))


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    form = EntryForm
    list_display = ["display_name", "engine", "owner", "active", "health_status", "last_error", "created_at"]
    list_filter = ["engine", "active"]
    list_select_related = ["owner", "health"]
    search_fields = ["display_name", "owner__username"]
    autocomplete_fields = ["owner"]
    readonly_fields = ["health_status", "last_error", "last_ok"]
    inlines = [EngineCallInline]
    actions = ["probe", "reset_health"]

    def _health(self, obj):
        try:
            return obj.health
        except EntryHealth.DoesNotExist:
            return None

    @admin.display(description="health")
    def health_status(self, obj):
        health = self._health(obj)
        if health is None or health.healthy:
            failures = health.consecutive_failures if health else 0
            return f"healthy ({failures} recent failure(s))" if failures else "healthy"
        return format_html('<strong style="color:#b00">unhealthy</strong> since {}', health.unhealthy_since)

    @admin.display(description="last error")
    def last_error(self, obj):
        health = self._health(obj)
        return (
            f"{health.last_error} ({health.last_error_at:%Y-%m-%d %H:%M:%S})" if health and health.last_error else "—"
        )

    @admin.display(description="last success")
    def last_ok(self, obj):
        health = self._health(obj)
        return health.last_ok_at if health and health.last_ok_at else "—"

    @admin.action(description="Probe the selected entries (one test message)")
    def probe(self, request, queryset):
        for entry in queryset:
            report = entry_probe(entry_id=entry.pk, for_organiser=True)
            level = messages.SUCCESS if report["outcome"] == "ok" else messages.WARNING
            said = f' said "{report["reply"][:80]}"' if report["reply"] else f" {report['error']}"
            self.message_user(request, f"{entry}: {report['outcome']} in {report['latency_ms']} ms;{said}", level)

    @admin.action(description="Mark the selected entries healthy (close the circuit breaker)")
    def reset_health(self, request, queryset):
        for entry in queryset:
            entry_health_reset(entry_id=entry.pk)
        self.message_user(request, f"Reset {queryset.count()} entry(ies).", messages.SUCCESS)


@admin.register(EngineCall)
class EngineCallAdmin(admin.ModelAdmin):
    list_display = [
        "created_at",
        "entry",
        "kind",
        "subject",
        "outcome",
        "latency_ms",
        "attempt",
        "conversation",
        "error",
        "detail",
    ]
    list_filter = ["outcome", "kind", "entry"]
    search_fields = ["entry__display_name", "subject", "error"]
    list_select_related = ["entry", "conversation__interrogation"]
    readonly_fields = [
        "entry",
        "subject",
        "conversation",
        "trigger_seq",
        "kind",
        "attempt",
        "outcome",
        "transient",
        "latency_ms",
        "error",
        "detail",
        "created_at",
    ]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(LearnedPair)
class LearnedPairAdmin(admin.ModelAdmin):
    list_display = ["prompt", "reply", "prev_prompt", "created_at"]
    search_fields = ["prompt", "reply"]
    raw_id_fields = ["conversation", "prompt_author", "reply_author"]


class ConversationInline(admin.TabularInline):
    model = Conversation
    extra = 0
    fields = ["side", "witness_entry", "witness_human", "status", "started_at", "ended_at", "message_count"]
    readonly_fields = fields
    can_delete = False
    show_change_link = True

    def message_count(self, obj):
        return obj.messages.count()

    def has_add_permission(self, request, obj=None):
        return False


class VerdictInline(admin.StackedInline):
    model = Verdict
    extra = 0
    readonly_fields = ["judge", "choice", "confidence", "reason", "decided_at", "time_to_decision_s", "correct"]
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


class InterrogationCreateForm(forms.ModelForm):
    """New interrogations go through the service, which places the witnesses left/right at random."""

    entries = forms.ModelMultipleChoiceField(
        queryset=Entry.objects.filter(active=True), required=False, help_text="Machine witnesses (0–2)."
    )
    confederates = forms.ModelMultipleChoiceField(
        queryset=get_user_model().objects.filter(groups__name=roles.CONFEDERATE),
        required=False,
        help_text="Human witnesses (0–2). Choose one entry and one confederate for Turing's three-party test.",
    )

    class Meta:
        model = Interrogation
        fields = ["title", "judge", "time_limit_s", "keystroke_mode", "scheduled_at"]

    def clean(self):
        data = super().clean()
        witnesses = list(data.get("entries") or []) + list(data.get("confederates") or [])
        if len(witnesses) not in (1, 2):
            raise forms.ValidationError("Choose one witness (one-to-one) or two (three-party).")
        if data.get("judge") in witnesses:
            raise forms.ValidationError("The judge cannot also be a witness.")
        data["witnesses"] = witnesses
        return data


@admin.register(Interrogation)
class InterrogationAdmin(admin.ModelAdmin):
    list_display = [
        "__str__",
        "kind",
        "judge",
        "status",
        "started_at",
        "deadline",
        "verdict_summary",
        "published",
        "console",
    ]
    list_filter = ["status", "kind", ("published_at", admin.EmptyFieldListFilter)]
    search_fields = ["title", "judge__username", "public_id"]
    date_hierarchy = "created_at"
    readonly_fields = [
        "public_id",
        "kind",
        "status",
        "started_at",
        "deadline",
        "ended_at",
        "end_reason",
        "published_at",
        "published_with_names",
        "created_at",
    ]
    inlines = [ConversationInline, VerdictInline]
    actions = ["start", "end", "publish", "publish_with_names", "unpublish"]

    def get_form(self, request, obj=None, **kwargs):
        if obj is None:
            kwargs["form"] = InterrogationCreateForm
        return super().get_form(request, obj, **kwargs)

    def get_fields(self, request, obj=None):
        if obj is None:
            return ["title", "judge", "time_limit_s", "keystroke_mode", "scheduled_at", "entries", "confederates"]
        return ["title", "judge", "time_limit_s", "keystroke_mode", "scheduled_at", *self.readonly_fields]

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return []
        fixed = [*self.readonly_fields, "judge", "time_limit_s", "keystroke_mode"]
        # an ended interrogation's title is sealed with its record (arena.services.seals)
        return [*fixed, "title"] if obj.status in (Status.ENDED, Status.ABORTED) else fixed

    def get_inlines(self, request, obj):
        return [] if obj is None else self.inlines

    def save_model(self, request, obj, form, change):
        if change:
            return super().save_model(request, obj, form, change)
        data = form.cleaned_data
        created = services.interrogation_create(
            judge=data["judge"],
            witnesses=data["witnesses"],
            time_limit_s=data["time_limit_s"],
            title=data["title"],
            scheduled_at=data.get("scheduled_at"),
            keystroke_mode=data.get("keystroke_mode", False),
        )
        obj.pk, obj.public_id, obj.kind = created.pk, created.public_id, created.kind

    @admin.display(description="verdict")
    def verdict_summary(self, obj):
        verdict = Verdict.objects.filter(interrogation=obj).first()
        return (
            "—"
            if verdict is None
            else f"{verdict.choice} {verdict.confidence}% ({'right' if verdict.correct else 'wrong'})"
        )

    @admin.display(boolean=True)
    def published(self, obj):
        return obj.is_published

    @admin.display(description="live")
    def console(self, obj):
        return format_html('<a href="{}">watch</a>', reverse("monitor"))

    def _each(self, request, queryset, action, done):
        ok = 0
        for interrogation in queryset:
            try:
                action(interrogation)
                ok += 1
            except ArenaError as exc:
                self.message_user(request, f"{interrogation}: {exc}", messages.WARNING)
        if ok:
            self.message_user(request, f"{done} {ok} interrogation(s).", messages.SUCCESS)

    @admin.action(description="Start the selected interrogations")
    def start(self, request, queryset):
        self._each(
            request, queryset, lambda i: services.interrogation_start(interrogation_id=i.pk, by=request.user), "Started"
        )

    @admin.action(description="End the selected interrogations now")
    def end(self, request, queryset):
        self._each(
            request,
            queryset,
            lambda i: services.interrogation_end(interrogation_id=i.pk, reason="organiser", by=request.user),
            "Ended",
        )

    @admin.action(description="Publish transcripts (witnesses anonymised)")
    def publish(self, request, queryset):
        self._each(request, queryset, lambda i: services.interrogation_publish(interrogation_id=i.pk), "Published")

    @admin.action(description="Publish transcripts with names")
    def publish_with_names(self, request, queryset):
        self._each(
            request,
            queryset,
            lambda i: services.interrogation_publish(interrogation_id=i.pk, with_names=True),
            "Published",
        )

    @admin.action(description="Unpublish transcripts")
    def unpublish(self, request, queryset):
        self._each(request, queryset, lambda i: services.interrogation_unpublish(interrogation_id=i.pk), "Unpublished")


class MessageInline(admin.TabularInline):
    model = Message
    extra = 0
    fields = ["seq", "sender_role", "text", "created_at", "hash"]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Conversation)
class ConversationAdmin(admin.ModelAdmin):
    list_display = ["__str__", "side", "witness_entry", "witness_human", "status", "started_at", "ended_at"]
    list_filter = ["status", "side", "witness_entry"]
    search_fields = ["interrogation__title", "witness_entry__display_name", "witness_human__username"]
    readonly_fields = [
        "public_id",
        "interrogation",
        "interrogator",
        "witness_entry",
        "witness_human",
        "side",
        "status",
        "scheduled_at",
        "started_at",
        "ended_at",
        "time_limit_s",
    ]
    inlines = [MessageInline]

    def has_add_permission(self, request):
        return False


@admin.register(Message)
class MessageAdmin(admin.ModelAdmin):
    list_display = ["conversation", "seq", "sender_role", "short_text", "created_at"]
    list_filter = ["sender_role"]
    search_fields = ["text"]
    list_select_related = ["conversation__interrogation"]
    readonly_fields = ["conversation", "seq", "sender_role", "text", "created_at", "prev_hash", "hash"]

    @admin.display(description="text")
    def short_text(self, obj):
        return obj.text[:80]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False  # transcripts are evidence: read-only in the admin


@admin.register(Verdict)
class VerdictAdmin(admin.ModelAdmin):
    list_display = ["interrogation", "judge", "choice", "confidence", "correct", "time_to_decision_s", "decided_at"]
    list_filter = ["correct", "choice"]
    search_fields = ["interrogation__title", "judge__username", "reason"]
    readonly_fields = [
        "interrogation",
        "judge",
        "choice",
        "confidence",
        "reason",
        "decided_at",
        "time_to_decision_s",
        "correct",
    ]

    def has_add_permission(self, request):
        return False


@admin.register(Keystroke)
class KeystrokeAdmin(admin.ModelAdmin):
    list_display = ["conversation", "seq", "sender_role", "key", "stamp", "time"]
    list_filter = ["sender_role"]
    raw_id_fields = ["conversation"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False  # recorded evidence, like the messages it backs


# --- entrants: sign-up approval, API keys ------------------------------------------------------------


@admin.register(EntrantApplication)
class EntrantApplicationAdmin(admin.ModelAdmin):
    list_display = ["user", "about", "created_at", "approved_at", "approved_by"]
    list_filter = [("approved_at", admin.EmptyFieldListFilter)]
    search_fields = ["user__username", "about"]
    readonly_fields = ["user", "about", "created_at", "approved_at", "approved_by"]
    actions = ["approve"]

    def has_add_permission(self, request):
        return False

    @admin.action(description="Approve the selected entrants (they may register entries)")
    def approve(self, request, queryset):
        from arena.services.entrants import entrant_approve

        approved = sum(entrant_approve(application_id=a.pk, by=request.user) for a in queryset)
        self.message_user(request, f"Approved {approved} entrant(s).", messages.SUCCESS)


@admin.register(ApiKey)
class ApiKeyAdmin(admin.ModelAdmin):
    list_display = ["name", "user", "prefix", "created_at", "last_used_at", "revoked_at"]
    list_filter = [("revoked_at", admin.EmptyFieldListFilter)]
    search_fields = ["name", "user__username", "prefix"]
    readonly_fields = ["user", "name", "prefix", "key_hash", "created_at", "last_used_at", "revoked_at"]
    actions = ["revoke"]

    def has_add_permission(self, request):
        return False  # keys are created by their owners, who alone see them

    @admin.action(description="Revoke the selected keys")
    def revoke(self, request, queryset):
        from django.utils import timezone

        revoked = queryset.filter(revoked_at__isnull=True).update(revoked_at=timezone.now())
        self.message_user(request, f"Revoked {revoked} key(s).", messages.SUCCESS)
