"""Turing Trade: games, bettors, questions and answers, the market, a double-entry ledger, trades.

Points are integers everywhere. Lock order in every service: Market -> Game -> Participant. The ledger
is double-entry: a grant, payout or refund is a LedgerTxn whose LedgerEntry legs sum to zero, and a
trade is a transaction of its own, its two legs implied by its row (the bettor's account pays `cost`,
the game's maker account receives it). Account balances are a cache of those legs, moved in the same
transaction (`ledger_post`, the trade path, or the PostgreSQL trade function of migration 0005), and
the database refuses a negative bettor balance (CheckConstraint), so an application bug cannot
overdraw; `selectors.ledger_audit` checks every balance against its legs.
"""

import uuid

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q


class Game(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", "draft"
        OPEN = "open", "open for bettors to join"
        RUNNING = "running", "running"
        SETTLED = "settled", "ended and settled"
        VOID = "void", "void (refunded)"

    class Maker(models.TextChoices):
        LINEAR = "linear", "linear ±1 (Turing Trade, edge convention)"
        LMSR = "lmsr", "Hanson's LMSR"

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    title = models.CharField(max_length=200, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT, db_index=True)
    market_maker = models.CharField(max_length=10, choices=Maker.choices, default=Maker.LINEAR)
    lmsr_b = models.FloatField(default=18.0, help_text="LMSR liquidity b, in shares (max loss 100·b·ln 2 points).")
    p_human = models.FloatField(default=0.5, help_text="Probability that the target drawn is a human.")
    max_bettors = models.PositiveSmallIntegerField(default=8)
    starting_points = models.PositiveIntegerField(default=1000)
    duration_s = models.PositiveIntegerField(default=600)
    answer_delay_s = models.FloatField(default=5.0, help_text="Seconds before other bettors see an answer's text.")
    human_pool = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="+")
    entry_pool = models.ManyToManyField("arena.Entry", blank=True, related_name="+")
    target_human = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="market_targets"
    )
    target_entry = models.ForeignKey("arena.Entry", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    started_at = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    end_reason = models.CharField(max_length=20, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(condition=Q(p_human__gte=0, p_human__lte=1), name="game_p_human_0_1"),
            models.CheckConstraint(condition=Q(answer_delay_s__gte=0), name="game_delay_nonnegative"),
            models.CheckConstraint(
                condition=Q(target_human__isnull=True) | Q(target_entry__isnull=True), name="game_at_most_one_target"
            ),
        ]

    def __str__(self):
        return self.title or f"Game {self.pk}"

    @property
    def target_is_human(self) -> bool | None:
        if self.target_human_id:
            return True
        return False if self.target_entry_id else None

    @property
    def is_finished(self) -> bool:
        return self.status in (self.Status.SETTLED, self.Status.VOID)


class Market(models.Model):
    """The market maker's state; its row is the lock that serialises a game's trades."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="market")
    human_price = models.SmallIntegerField(default=50)
    q_human = models.IntegerField(default=0, help_text="Human securities the maker has sold (net).")
    q_computer = models.IntegerField(default=0, help_text="Computer securities the maker has sold (net).")
    seq = models.PositiveIntegerField(default=0, help_text="Sequence number of the last trade.")

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(human_price__gte=0, human_price__lte=100), name="market_price_0_100")
        ]


class Account(models.Model):
    class Kind(models.TextChoices):
        BETTOR = "bettor", "bettor"
        MAKER = "maker", "market maker"
        ISSUER = "issuer", "issuer of starting points"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="accounts")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    balance = models.BigIntegerField(default=0, help_text="Cached: always the sum of this account's ledger legs.")

    class Meta:
        constraints = [
            models.CheckConstraint(condition=~Q(kind="bettor") | Q(balance__gte=0), name="account_bettor_nonnegative"),
            models.UniqueConstraint(
                fields=["game", "kind"], condition=~Q(kind="bettor"), name="account_one_house_per_game"
            ),
        ]

    def __str__(self):
        return f"{self.kind} account {self.pk} of game {self.game_id}"


class Participant(models.Model):
    """A bettor of one game, numbered 1..n in joining order; holds one type of security at a time."""

    class Security(models.TextChoices):
        NONE = "", "none"
        HUMAN = "H", "human"
        COMPUTER = "C", "computer"

    # no index of its own: the unique (game, user) and (game, number) serve lookups by game
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="participants", db_index=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="market_participations")
    number = models.PositiveSmallIntegerField()
    account = models.OneToOneField(Account, on_delete=models.PROTECT, related_name="participant")
    security = models.CharField(max_length=1, choices=Security.choices, default="", blank=True)
    quantity = models.PositiveIntegerField(default=0)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="participant_once_per_game"),
            models.UniqueConstraint(fields=["game", "number"], name="participant_number_unique"),
            models.CheckConstraint(
                condition=(Q(quantity=0) & Q(security="")) | (Q(quantity__gt=0) & Q(security__in=["H", "C"])),
                name="participant_one_security_type",
            ),
        ]

    def __str__(self):
        return f"bettor {self.number} of game {self.game_id}"


class Question(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", "queued (seen by its author only)"
        CURRENT = "current", "current (seen by all)"
        ANSWERED = "answered", "answered"
        DROPPED = "dropped", "never asked (the game ended)"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="questions")
    asker = models.ForeignKey(Participant, on_delete=models.CASCADE, related_name="questions")
    text = models.TextField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    number = models.PositiveIntegerField(null=True, blank=True, help_text="Order in which questions became current.")
    asked_at = models.DateTimeField()
    current_at = models.DateTimeField(null=True, blank=True, help_text="When all bettors and the target saw it.")

    class Meta:
        ordering = ["game", "asked_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="question_number_unique"),
            models.UniqueConstraint(fields=["game"], condition=Q(status="current"), name="question_one_current"),
        ]


class Answer(models.Model):
    question = models.OneToOneField(Question, on_delete=models.CASCADE, related_name="answer")
    text = models.TextField()
    answered_at = models.DateTimeField(help_text="When the asker (and the target) saw it.")
    public_at = models.DateTimeField(help_text="When every other bettor may see its text.")


class LedgerTxn(models.Model):
    """A movement of points other than a trade (a Trade is a ledger transaction of its own)."""

    class Kind(models.TextChoices):
        GRANT = "grant", "starting points"
        PAYOUT = "payout", "payout at reveal"
        REFUND = "refund", "refund of a void game"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="ledger")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    participant = models.ForeignKey(Participant, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            # grants, payouts and refunds happen at most once per bettor: settlement is idempotent here too
            models.UniqueConstraint(fields=["participant", "kind"], name="ledger_once_per_bettor_and_kind"),
        ]


class LedgerEntry(models.Model):
    """One leg. The legs of a transaction sum to zero (checked at commit by a PostgreSQL trigger)."""

    txn = models.ForeignKey(LedgerTxn, on_delete=models.CASCADE, related_name="entries")
    account = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="entries")
    amount = models.BigIntegerField()


class Trade(models.Model):
    """One unit bought or sold, and the ledger transaction that pays for it: its legs are -cost on the
    bettor's account (`participant.account`) and +cost on the game's market-maker account, so it sums
    to zero by construction; both cached balances move in the trade's own database transaction."""

    class Action(models.TextChoices):
        BUY = "buy", "buy"
        SELL = "sell", "sell"

    # game and participant: no index of their own (fewer index writes per trade); the unique
    # (game, seq) and (participant, idempotency_key) serve lookups by either
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="trades", db_index=False)
    seq = models.PositiveIntegerField()
    participant = models.ForeignKey(Participant, on_delete=models.CASCADE, related_name="trades", db_index=False)
    action = models.CharField(max_length=4, choices=Action.choices)
    security = models.CharField(max_length=1, choices=Participant.Security.choices[1:])
    cost = models.IntegerField(help_text="Points the bettor paid (negative: received).")
    price_before = models.SmallIntegerField()
    price_after = models.SmallIntegerField()
    question = models.ForeignKey(Question, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    idempotency_key = models.CharField(max_length=64)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="trade_seq_unique"),
            models.UniqueConstraint(fields=["participant", "idempotency_key"], name="trade_idempotent_click"),
        ]


MAX_SPECTATOR_DELAY_S = 3600  # an hour behind the judge at most (MARKETS_SPECTATOR_DELAY_S has the same bound)


class SpectatorOptions(models.Model):
    """A format's switch for crowd markets on its conversations (a Loebner contest, a wager session): whether
    the public may watch and bet, and how far behind the judges (markets.policies.spectator_options)."""

    spectator_markets = models.BooleanField(
        default=True,
        help_text="The public may watch each conversation, a delay behind its judge, and bet on who "
        "is human (conversations that already have a market keep it).",
    )
    spectator_delay_s = models.FloatField(
        "spectator delay (seconds)",
        null=True,
        blank=True,
        validators=[MinValueValidator(0), MaxValueValidator(MAX_SPECTATOR_DELAY_S)],
        help_text="How far behind the judges the spectators read, in seconds (empty: the platform's default, "
        "MARKETS_SPECTATOR_DELAY_S).",
    )

    class Meta:
        abstract = True


class ConversationMarket(models.Model):
    """A crowd market on someone else's arena interrogation: "the left witness is human" (three-party)
    or "this candidate is human" (one-to-one). Its Game holds the maker, the accounts, the bettors and
    the trades of Turing Trade, unchanged; the interrogation's schedule opens and closes it
    (markets.conversation.services), its reveal settles it (the game's target is set to the witness on
    `side` only then), an abort voids it. Spectators watch through the interrogation's arena
    SpectatorFeed, a delay behind the judge."""

    class Side(models.TextChoices):
        LEFT = "left", "the left witness is human"
        SOLE = "sole", "this candidate is human"

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="conversation_market")
    interrogation = models.ForeignKey("arena.Interrogation", on_delete=models.PROTECT, related_name="markets")
    side = models.CharField(max_length=5, choices=Side.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [models.UniqueConstraint(fields=["interrogation", "side"], name="xmarket_one_per_side")]

    def __str__(self):
        return f"{self.get_side_display()}: {self.interrogation}"

    @property
    def question(self) -> str:
        return self.get_side_display()
