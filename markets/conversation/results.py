"""Three verdicts per conversation, side by side: the judge's decision, the crowd's final price, the
truth; Brier scores and calibration of judges and of crowds with n and intervals (arena.stats); the
exports (comparison rows, trades with the price before and after); a bettor's record across markets.

The judge's forecast of a market's event ("the witness on this side is human") is their confidence
in their pick when the pick says the event, 1 − confidence otherwise (a pick without a confidence,
as a wager trial's: 1 or 0). The crowd's forecast is the final human price / 100. "Right" means the
forecast is above ½ when the event happened, below ½ when it did not (exactly ½ counts as not right).
"""

from django.contrib.auth import get_user_model

from arena import stats
from core.errors import NotAllowed
from core.payloads import iso
from markets.models import ConversationMarket, Game, Participant, Trade
from markets.reveals import judge_call

FINISHED = (Game.Status.SETTLED, Game.Status.VOID)
TRADE_COLUMNS = ("market", "seq", "bettor", "action", "security", "cost", "price_before", "price_after", "at")
ROW_COLUMNS = (
    "market",
    "question",
    "kind",
    "ended_at",
    "judge_pick",
    "judge_confidence",
    "judge_p",
    "market_p",
    "human",
    "judge_brier",
    "market_brier",
    "trades",
    "bettors",
    "source",
)


def comparison_rows() -> list[dict]:
    """One row per settled conversation market, oldest first."""
    markets = (
        ConversationMarket.objects.filter(game__status=Game.Status.SETTLED)
        .select_related("game", "game__market", "interrogation")
        .order_by("game__ended_at", "pk")
    )
    rows = []
    for cm in markets:
        game, call = cm.game, judge_call(interrogation_id=cm.interrogation_id, side=cm.side)
        human = 1.0 if game.target_is_human else 0.0
        market_p = game.market.human_price / 100
        judge_p = call.p_event if call else None
        rows.append(
            {
                "market": str(game.public_id),
                "question": cm.question,
                "kind": cm.interrogation.kind,
                "ended_at": iso(game.ended_at),
                "judge_pick": call.pick if call else None,
                "judge_confidence": call.confidence if call else None,
                "judge_p": None if judge_p is None else round(judge_p, 4),
                "market_p": market_p,
                "human": bool(human),
                "judge_brier": None if judge_p is None else round((judge_p - human) ** 2, 4),
                "market_brier": round((market_p - human) ** 2, 4),
                "trades": game.market.seq,
                "bettors": game.participants.count(),
                "source": call.source if call else None,
            }
        )
    return rows


def _forecaster(forecasts, outcomes, *, seed: int, replicates: int) -> dict:
    right = sum((f > 0.5) == bool(o) and f != 0.5 for f, o in zip(forecasts, outcomes))
    accuracy = stats.proportion_estimate(right, len(forecasts))
    return {
        "n": len(forecasts),
        "brier": stats.brier_score(forecasts, outcomes, reference=0.5, replicates=replicates, seed=seed).as_dict(),
        "right": {"k": right, "rate": accuracy.rate, "ci_low": accuracy.ci_low, "ci_high": accuracy.ci_high},
        "calibration": [b.as_dict() for b in stats.calibration_bins(forecasts, outcomes, bins=5)],
    }


def comparison(*, replicates: int = 2000, seed: int = 0) -> dict:
    """The rows, and judges and crowds scored on the same conversations (those with a judge's forecast)."""
    rows = comparison_rows()
    both = [r for r in rows if r["judge_p"] is not None]
    outcomes = [1.0 if r["human"] else 0.0 for r in both]
    return {
        "rows": rows,
        "judges": _forecaster([r["judge_p"] for r in both], outcomes, seed=seed, replicates=replicates),
        "crowds": _forecaster([r["market_p"] for r in both], outcomes, seed=seed, replicates=replicates),
        "crowds_all": _forecaster(
            [r["market_p"] for r in rows], [1.0 if r["human"] else 0.0 for r in rows], seed=seed, replicates=replicates
        ),
    }


def trades_export() -> list[dict]:
    """Every trade of every finished conversation market, bettors by their number in the market."""
    trades = (
        Trade.objects.filter(game__conversation_market__isnull=False, game__status__in=FINISHED)
        .select_related("game", "participant")
        .order_by("game_id", "seq")
    )
    return [
        {
            "market": str(t.game.public_id),
            "seq": t.seq,
            "bettor": t.participant.number,
            "action": t.action,
            "security": t.security,
            "cost": t.cost,
            "price_before": t.price_before,
            "price_after": t.price_after,
            "at": iso(t.created_at),
        }
        for t in trades
    ]


def bettor_record(*, username: str, viewer=None) -> dict:
    """A bettor's record across every market (Turing Trade games and conversation markets): finished
    ones for everyone, live ones too for the bettor themselves."""
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise NotAllowed("No such bettor.")
    own = viewer is not None and viewer.is_authenticated and viewer.pk == user.pk
    participations = Participant.objects.filter(user=user).select_related("game", "game__market", "account")
    if not own:
        participations = participations.filter(game__status__in=FINISHED)
    xmarket_games = set(
        ConversationMarket.objects.filter(game__participants__user=user).values_list("game_id", flat=True)
    )
    rows, totals = [], {"markets": 0, "settled": 0, "profit": 0, "trades": 0, "right": 0}
    for p in participations.order_by("-game__created_at"):
        game = p.game
        trades = list(Trade.objects.filter(participant=p).order_by("seq").values_list("price_after", flat=True))
        settled = game.status == Game.Status.SETTLED
        profit = p.account.balance - game.starting_points if game.is_finished else None
        forecast = trades[-1] if trades else None
        right = settled and forecast is not None and forecast != 50 and (forecast > 50) == bool(game.target_is_human)
        rows.append(
            {
                "game": game,
                "kind": "conversation market" if game.pk in xmarket_games else "Turing Trade",
                "status": game.status,
                "points": p.account.balance,
                "profit": profit,
                "trades": len(trades),
                "last_price": forecast,
                "human": game.target_is_human if settled else None,
                "right": right,
            }
        )
        totals["markets"] += 1
        totals["trades"] += len(trades)
        if settled:
            totals["settled"] += 1
            totals["profit"] += profit
            totals["right"] += bool(right)
    accuracy = stats.proportion_estimate(totals["right"], totals["settled"])
    return {
        "bettor": user.get_username(),
        "own": own,
        "rows": rows,
        "totals": totals,
        "right_rate": accuracy.rate,
        "right_ci": (accuracy.ci_low, accuracy.ci_high),
    }
