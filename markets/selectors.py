"""Turing Trade's reads: the full state of each console, the public log, the leaderboard.

Every answer text passes through `visibility.answer_visible`, from stored timestamps: a page load, a
websocket (re)connect and the JSON API all read here, so none can show a text before its time.
"""

import collections

from django.db.models import Sum

from arena import stats
from core.errors import NotAllowed
from markets import payloads
from markets.charts import OPENING_PRICE
from markets.makers import quotes
from markets.models import Account, ConversationMarket, Game, LedgerEntry, LedgerTxn, Participant, Question, Trade
from markets.services.ledger import trade_legs
from markets.services.trading import market_maker, market_state
from markets.visibility import answer_visible

QS = Question.Status
HISTORY_POINTS = 1000  # price points in a console's state: the chart's last 1000 trades


def game_by_public_id(*, public_id) -> Game:
    # a conversation market's game is reached through its own pages (markets.conversation.selectors), never these
    game = (
        Game.objects.select_related("market", "target_entry")
        .filter(public_id=public_id, conversation_market__isnull=True)
        .first()
    )
    if game is None:
        raise NotAllowed("No such game.")
    return game


def participant_for(*, game: Game, user) -> Participant | None:
    if not user.is_authenticated:
        return None
    return Participant.objects.select_related("account").filter(game=game, user=user).first()


def is_target(*, game: Game, user) -> bool:
    return user.is_authenticated and game.target_human_id == user.pk


def games_as_target(*, user) -> list[Game]:
    """The open and running games whose human target is this user (only they may be told)."""
    if not user.is_authenticated:
        return []
    live = [Game.Status.OPEN, Game.Status.RUNNING]
    return list(Game.objects.filter(target_human=user, status__in=live).order_by("-created_at")[:20])


def _fresh(game: Game) -> Game:
    """Re-read the game (a consumer keeps its object for the connection's life); settle it if due."""
    from markets.services import game_settle

    game.refresh_from_db()
    if game.status == Game.Status.RUNNING:
        game_settle(game_id=game.pk)
        game.refresh_from_db()
    return game


def _questions(game: Game, *, participant=None, target=False) -> tuple[dict | None, list]:
    shown = (
        game.questions.filter(status__in=[QS.CURRENT, QS.ANSWERED]).select_related("asker", "answer").order_by("number")
    )
    current, answered = None, []
    for q in shown:
        if q.status == QS.CURRENT:
            current = payloads.question(q)
        else:
            item = payloads.question(q)
            item["answer"] = payloads.answer(
                q, visible=game.is_finished or answer_visible(q, participant=participant, is_target=target)
            )
            answered.append(item)
    return current, answered


def _market(game: Game) -> dict:
    market = game.market
    market.refresh_from_db()
    return {
        "price": market.human_price,
        "seq": market.seq,
        "maker": game.market_maker,
        "quotes": quotes(market_maker(game), market_state(market)),
        "history": _history(game),
        "opened": payloads.price_point_row(0, OPENING_PRICE, game.started_at) if game.started_at else None,
    }


def _history(game: Game) -> list[dict]:
    """The last HISTORY_POINTS price points, oldest first: rows, not model instances. A console's state
    is read on every (re)connect; a long game's full history (thousands of points) made each read cost
    more than the one before. The public log (`game_log`) has every trade."""
    rows = game.trades.order_by("-seq").values_list("seq", "price_after", "created_at")[:HISTORY_POINTS]
    return [payloads.price_point_row(*row) for row in reversed(rows)]


def bettor_state(*, game: Game, participant: Participant | None) -> dict:
    """A bettor's console (participant None: a spectator's, with the same answer delay)."""
    game = _fresh(game)
    current, answered = _questions(game, participant=participant)
    state = {
        "type": "state",
        "role": "bettor" if participant else "spectator",
        "title": str(game),
        **payloads.clock(game),
        "current": current,
        "answered": answered,
        "market": _market(game),
        "bettors": game.participants.count(),
        "reveal": payloads.reveal(game),
    }
    if participant is not None:
        participant.refresh_from_db()
        participant.account.refresh_from_db()
        state["me"] = payloads.me(participant, participant.account.balance)
        state["queue"] = [
            payloads.queued(q) for q in participant.questions.filter(status=QS.QUEUED).order_by("asked_at", "id")
        ]
        state["settlement"] = settlement(game=game, participant=participant)
    return state


SECURITY_NAMES = {"H": "human", "C": "computer"}


def settlement(*, game: Game, participant: Participant) -> dict | None:
    """A bettor's result once the game is settled (None before): per security, what its trades cost and
    brought, what it paid at the reveal (100 per winning security held) and the profit; the totals. The
    payout is the ledger's; the total profit is the account's balance less the starting points."""
    if game.status != Game.Status.SETTLED:
        return None
    payout = (
        LedgerEntry.objects.filter(
            txn__game=game, txn__kind=LedgerTxn.Kind.PAYOUT, txn__participant=participant, account=participant.account
        ).aggregate(total=Sum("amount"))["total"]
        or 0
    )
    trades = list(participant.trades.values_list("security", "action", "cost"))
    rows = []
    for code, name in SECURITY_NAMES.items():
        costs = [(action, cost) for security, action, cost in trades if security == code]
        paid = payout if participant.security == code else 0
        spent = sum(c for _, c in costs if c > 0)
        received = -sum(c for _, c in costs if c < 0)
        rows.append(
            {
                "security": code,
                "name": name,
                "bought": sum(a == "buy" for a, _ in costs),
                "sold": sum(a == "sell" for a, _ in costs),
                "spent": spent,
                "received": received,
                "held": participant.quantity if participant.security == code else 0,
                "payout": paid,
                "profit": received + paid - spent,
            }
        )
    return {
        "securities": rows,
        "payout": payout,
        "points": participant.account.balance,
        "starting_points": game.starting_points,
        "profit": participant.account.balance - game.starting_points,
    }


def target_state(*, game: Game) -> dict:
    """The human target's console: the current question and its own answers, no prices."""
    game = _fresh(game)
    current, answered = _questions(game, target=True)
    return {
        "type": "state",
        "role": "target",
        "title": str(game),
        **payloads.clock(game),
        "current": current,
        "answered": answered,
    }


def game_log(*, game: Game) -> dict:
    """The public log of a finished game: questions, answers, every trade, the reveal."""
    if not game.is_finished:
        raise NotAllowed("The log is public once the game has ended.")
    questions = game.questions.filter(number__isnull=False).select_related("asker", "answer").order_by("number")
    return {
        "id": str(game.public_id),
        "title": str(game),
        "status": game.status,
        "market_maker": game.market_maker,
        "lmsr_b": game.lmsr_b if game.market_maker == "lmsr" else None,
        "answer_delay_s": game.answer_delay_s,
        "starting_points": game.starting_points,
        "started_at": payloads.iso(game.started_at),
        "ended_at": payloads.iso(game.ended_at),
        "reveal": payloads.reveal(game),
        "final_price": game.market.human_price,
        "market_brier": round(brier(game.market.human_price, bool(game.target_is_human)), 4)
        if game.status == Game.Status.SETTLED
        else None,
        "questions": [
            {**payloads.question(q), "answer": payloads.answer(q, visible=True) if hasattr(q, "answer") else None}
            for q in questions
        ],
        "trades": [payloads.trade(t) for t in game.trades.select_related("participant").order_by("seq")],
        "bettors": [
            {"number": p.number, "final_points": p.account.balance}
            for p in game.participants.select_related("account").order_by("number")
        ],
    }


def brier(price: int, human: bool) -> float:
    return (price / 100 - (1.0 if human else 0.0)) ** 2


def leaderboard() -> dict:
    """Bettors across settled games: total profit, and calibration as a Brier score, lower is
    better. A bettor's forecast in a game is the human price right after their last trade there (the
    price they chose to move the market to); a bettor who never traded forecasts 50."""
    games = {g.pk: g for g in Game.objects.filter(status=Game.Status.SETTLED)}
    last_price = {}
    for participant_id, price in (
        Trade.objects.filter(game_id__in=games).order_by("seq").values_list("participant_id", "price_after")
    ):
        last_price[participant_id] = price
    rows = {}
    for p in Participant.objects.filter(game_id__in=games).select_related("user", "account"):
        game = games[p.game_id]
        row = rows.setdefault(p.user_id, {"bettor": p.user.get_username(), "games": 0, "profit": 0, "brier": 0.0})
        row["games"] += 1
        row["profit"] += p.account.balance - game.starting_points
        row["brier"] += brier(last_price.get(p.pk, 50), bool(game.target_is_human))
    for row in rows.values():
        row["brier"] = round(row["brier"] / row["games"], 4)
    ranked = sorted(rows.values(), key=lambda r: (-r["profit"], r["brier"]))
    crowd = set(
        ConversationMarket.objects.filter(game_id__in=games).values_list("game_id", flat=True)
    )  # crowd markets on conversations: the rest are Turing Trade games
    return {"bettors": ranked, "games": len(games), "crowd_games": len(crowd), "trade_games": len(games) - len(crowd)}


def market_forecasts(*, replicates: int = 2000, seed: int = 0) -> dict:
    """Every settled game's market as a forecast that its target is human: the final human price / 100,
    scored by arena.stats.brier_score (mean Brier with a bootstrap interval) against the reference that
    knows only the game's prior P(human target); and the mean forecast when the target was human and
    when it was a machine (a market that cannot tell them apart forecasts the same for both)."""
    games = list(
        Game.objects.filter(status=Game.Status.SETTLED, conversation_market__isnull=True)
        .select_related("market")
        .order_by("ended_at", "pk")
    )
    forecasts = [g.market.human_price / 100 for g in games]
    outcomes = [1.0 if g.target_is_human else 0.0 for g in games]
    summary = stats.brier_score(
        forecasts, outcomes, reference=[g.p_human for g in games], replicates=replicates, seed=seed
    )
    by_target = {}
    for kind, value in (("human", 1.0), ("machine", 0.0)):
        mine = [f for f, o in zip(forecasts, outcomes) if o == value]
        by_target[kind] = {"n": len(mine), "mean_forecast": sum(mine) / len(mine) if mine else None}
    return {
        "summary": summary.as_dict(),
        "by_target": by_target,
        "games": [
            {
                "id": str(g.public_id),
                "title": str(g),
                "forecast": f,
                "human": bool(o),
                "brier": round(brier(g.market.human_price, bool(o)), 4),
            }
            for g, f, o in zip(games, forecasts, outcomes)
        ],
    }


def ledger_legs(*, game: Game) -> list[tuple[str, int, int, int]]:
    """Every leg of the game's books, as (transaction kind, transaction id, account id, amount): the
    legs of its grants, payouts and refunds, then the two legs each trade implies (its bettor's account
    pays the cost, the maker's account receives it), in trade order."""
    legs = [
        (kind, txn, account, amount)
        for kind, txn, account, amount in LedgerEntry.objects.filter(txn__game=game)
        .order_by("txn_id", "pk")
        .values_list("txn__kind", "txn_id", "account_id", "amount")
    ]
    maker = Account.objects.filter(game=game, kind=Account.Kind.MAKER).values_list("pk", flat=True).first()
    for trade_id, account, cost in (
        Trade.objects.filter(game=game).order_by("seq").values_list("pk", "participant__account_id", "cost")
    ):
        legs += [
            ("trade", trade_id, leg_account, amount)
            for leg_account, amount in trade_legs(bettor_account=account, maker_account=maker, cost=cost)
        ]
    return legs


def ledger_audit(*, game: Game) -> list[str]:
    """Invariant violations (empty when sound): zero-sum transactions, cached balance = the sum of the
    account's legs (entries and trades), no negative bettor balance, gap-free trade sequence, last
    logged price = market price."""
    problems = []
    for txn in game.ledger.annotate(total=Sum("entries__amount")):
        if (txn.total or 0) != 0:
            problems.append(f"transaction {txn.pk} sums to {txn.total}")
    totals = collections.Counter()
    for _, _, account, amount in ledger_legs(game=game):
        totals[account] += amount
    for account in Account.objects.filter(game=game):
        if account.balance != totals[account.pk]:
            problems.append(f"account {account.pk} caches {account.balance}, ledger says {totals[account.pk]}")
        if account.kind == Account.Kind.BETTOR and account.balance < 0:
            problems.append(f"account {account.pk} is negative")
    seqs = list(Trade.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    if seqs != list(range(1, len(seqs) + 1)):
        problems.append("trade sequence numbers have gaps or repeats")
    market = game.market
    market.refresh_from_db()
    if seqs and market.seq != seqs[-1]:
        problems.append("market seq differs from the last trade")
    last = Trade.objects.filter(game=game).order_by("-seq").first()
    if last and last.price_after != market.human_price:
        problems.append("market price differs from the last trade's price_after")
    return problems
