from urllib.parse import urlencode

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse

from core.errors import ArenaError
from markets import services
from markets.models import ConversationMarket, Game, Participant, Trade


class ParticipantInline(admin.TabularInline):
    model = Participant
    extra = 0
    fields = ["number", "user", "security", "quantity", "joined_at"]
    readonly_fields = fields
    can_delete = False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["__str__", "status", "market_maker", "max_bettors", "starting_points", "duration_s", "created_at"]
    list_filter = ["status", "market_maker"]
    fields = [
        "title",
        "market_maker",
        "lmsr_b",
        "p_human",
        "max_bettors",
        "starting_points",
        "duration_s",
        "answer_delay_s",
        "human_pool",
        "entry_pool",
        "status",
        "target_human",
        "target_entry",
        "started_at",
        "deadline",
        "ended_at",
        "end_reason",
    ]
    readonly_fields = ["status", "target_human", "target_entry", "started_at", "deadline", "ended_at", "end_reason"]
    filter_horizontal = ["human_pool", "entry_pool"]
    inlines = [ParticipantInline]
    actions = ["open_games", "start_games", "end_games", "void_games"]

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if not change:
            from markets.models import Account, Market

            Market.objects.get_or_create(game=obj)
            for kind in (Account.Kind.MAKER, Account.Kind.ISSUER):
                Account.objects.get_or_create(game=obj, kind=kind)

    def _each(self, request, queryset, service, **kwargs):
        for game in queryset:
            try:
                service(game_id=game.pk, **kwargs)
            except ArenaError as exc:
                self.message_user(request, f"{game}: {exc}", messages.ERROR)

    @admin.action(description="Open: draw the target and let bettors join")
    def open_games(self, request, queryset):
        self._each(request, queryset, services.game_open)

    @admin.action(description="Start now")
    def start_games(self, request, queryset):
        self._each(request, queryset, services.game_start)

    @admin.action(description="End now, reveal and settle…")
    def end_games(self, request, queryset):
        """Nothing ends here: the confirmation page lists the games and asks (its POST ends them)."""
        ids = ",".join(str(pk) for pk in queryset.values_list("pk", flat=True))
        return HttpResponseRedirect(f"{reverse('admin:markets_game_end')}?{urlencode({'ids': ids})}")

    def get_urls(self):
        return [path("end/", self.admin_site.admin_view(self.end_view), name="markets_game_end"), *super().get_urls()]

    def end_view(self, request):
        """GET: which running games would end, and what that does; POST (the button): end them."""
        if not self.has_change_permission(request):
            raise PermissionDenied
        source = request.POST if request.method == "POST" else request.GET
        ids = [int(k) for k in source.get("ids", "").split(",") if k.strip().isdigit()][:200]
        games = list(Game.objects.filter(pk__in=ids, status=Game.Status.RUNNING).select_related("market"))
        if request.method == "POST" and games:
            self._each(
                request,
                Game.objects.filter(pk__in=[g.pk for g in games]),
                services.game_settle,
                reason="organiser",
                force=True,
            )
            self.message_user(request, f"Ended, revealed and settled: {', '.join(str(g) for g in games)}.")
            return HttpResponseRedirect(reverse("admin:markets_game_changelist"))
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "games": games,
            "ids": ",".join(str(g.pk) for g in games),
            "title": "End now, reveal and settle?",
        }
        return TemplateResponse(request, "admin/markets/game/end_confirm.html", context)

    @admin.action(description="Void and refund")
    def void_games(self, request, queryset):
        self._each(request, queryset, services.game_void, reason="organiser")


@admin.register(Trade)
class TradeAdmin(admin.ModelAdmin):
    list_display = [
        "game",
        "seq",
        "participant",
        "action",
        "security",
        "cost",
        "price_before",
        "price_after",
        "created_at",
    ]
    list_filter = ["game"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(ConversationMarket)
class ConversationMarketAdmin(admin.ModelAdmin):
    """Crowd markets on conversations: opened by the formats' policies (or here, on any interrogation);
    they follow their interrogations (the markets sweep), so there is nothing to start or end by hand."""

    list_display = ["__str__", "side", "game", "created_at"]
    list_select_related = ["game", "interrogation"]
    raw_id_fields = ["interrogation"]
    fields = ["interrogation", "side", "game"]
    readonly_fields = ["side", "game"]
    actions = ["sync_markets"]

    def has_change_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        try:
            opened = services.xmarket_open(interrogation_id=obj.interrogation_id)
        except ArenaError as exc:
            self.message_user(request, str(exc), messages.ERROR)
            return
        obj.pk, obj.game_id, obj.side = opened.pk, opened.game_id, opened.side

    @admin.action(description="Bring the selected markets in line with their interrogations")
    def sync_markets(self, request, queryset):
        for market in queryset:
            services.xmarket_sync(market_id=market.pk)
