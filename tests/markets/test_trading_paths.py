"""The database function (one round trip, PostgreSQL) and the ORM path give the same answers: the
same random sequence of clicks (buys, sells, both securities, repeated clicks, price bounds, points
running out, an outsider, a question in between, a closed game) on two identical games, one per path;
every answer, every refusal and the books must be equal."""

import random

import pytest
from django.db import connection

from arena import roles
from core.errors import ArenaError
from markets import payloads, selectors, services
from markets.models import Account, Market, Participant, Question, Trade

from ..conftest import make_user
from .conftest import running_game

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def postgresql_only():
    if connection.vendor != "postgresql":
        pytest.skip("the one-round-trip trade is a PostgreSQL function (set DATABASE_URL)")


def answer(game, user, path, action, security, key):
    try:
        trade = services.trade_place(game_id=game.pk, user=user, action=action, security=security, key=key, path=path)
    except ArenaError as exc:
        return ("refused", type(exc).__name__, exc.code, str(exc))
    shown = payloads.trade(trade)
    shown.pop("at")
    # what the trader's page is sent after the trade (markets.notify.traded) is the books' truth
    truth = Participant.objects.select_related("account").get(pk=trade.participant_id)
    assert payloads.me(trade.participant, trade.participant.account.balance) == payloads.me(
        truth, truth.account.balance
    )
    question = Question.objects.filter(pk=trade.question_id).values_list("number", flat=True).first()
    return ("ok", shown | {"question": question})


def books(game):
    market = Market.objects.get(game=game)
    kinds = dict(Account.objects.filter(game=game).values_list("pk", "kind"))
    return {
        "market": (market.human_price, market.q_human, market.q_computer, market.seq),
        "accounts": sorted(Account.objects.filter(game=game).values_list("kind", "balance")),
        "positions": list(
            Participant.objects.filter(game=game).order_by("number").values_list("number", "security", "quantity")
        ),
        "trades": list(
            Trade.objects.filter(game=game)
            .order_by("seq")
            .values_list(
                "seq",
                "participant__number",
                "action",
                "security",
                "cost",
                "price_before",
                "price_after",
                "idempotency_key",
            )
        ),
        "legs": [(kind, kinds[account], amount) for kind, _, account, amount in selectors.ledger_legs(game=game)],
    }


@pytest.mark.slow
@pytest.mark.parametrize("start_price, seed", [(50, 1), (96, 2), (3, 3)])
def test_both_paths_answer_every_click_alike(cast, start_price, seed):
    users = [make_user(f"p{i}", roles.BETTOR) for i in range(3)]
    outsider = make_user("outsider", roles.BETTOR)
    games = {path: running_game(cast, users, starting_points=120) for path in ("sql", "python")}
    Market.objects.filter(game__in=games.values()).update(human_price=start_price)
    rng, keys, answers = random.Random(seed), [], {"sql": [], "python": []}
    for step in range(160):
        who = rng.randrange(3)
        action, security = rng.choice(["buy", "buy", "sell"]), rng.choice("HC")
        if keys and rng.random() < 0.1:
            who, key = rng.choice(keys)  # a repeated click, possibly of a refused one
        else:
            key = f"k{step}"
            keys.append((who, key))
        user = outsider if rng.random() < 0.03 else users[who]
        if step == 80:
            for game in games.values():
                services.question_ask(game_id=game.pk, user=users[0], text="Are you human?")
        for path, game in games.items():
            answers[path].append(answer(game, user, path, action, security, key))
    for game in games.values():
        services.game_settle(game_id=game.pk, force=True)
    for path, game in games.items():
        answers[path].append(answer(game, users[0], path, "buy", "H", "after-the-end"))

    assert answers["sql"] == answers["python"]
    kinds = {a[0] if a[0] == "ok" else a[2] for a in answers["sql"]}
    assert {"ok", "not_held", "insufficient_points", "closed"} <= kinds  # the sequence reached the refusals
    assert books(games["sql"]) == books(games["python"])
    assert all(selectors.ledger_audit(game=game) == [] for game in games.values())


def test_a_bound_is_refused_alike(cast):
    user = make_user("edge", roles.BETTOR)
    games = {path: running_game(cast, [user]) for path in ("sql", "python")}
    Market.objects.filter(game__in=games.values()).update(human_price=100)
    assert answer(games["sql"], user, "sql", "buy", "H", "a") == answer(
        games["python"], user, "python", "buy", "H", "a"
    )
    assert answer(games["sql"], user, "sql", "buy", "H", "a")[2] == "price_bound"


def test_the_lmsr_treatment_falls_back_to_the_python_path(cast):
    user = make_user("lmsr", roles.BETTOR)
    games = {path: running_game(cast, [user], market_maker="lmsr", lmsr_b=10) for path in ("sql", "python")}
    for n in range(4):
        assert answer(games["sql"], user, "sql", "buy", "H", f"l{n}") == answer(
            games["python"], user, "python", "buy", "H", f"l{n}"
        )
    assert books(games["sql"]) == books(games["python"])
