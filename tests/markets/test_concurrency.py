"""Concurrent trading on PostgreSQL: 16 threads on one game keep every invariant; without the row
locks, simultaneous clicks read the same price and collide, and their updates are lost. Each on both
paths: the database function (every linear-maker trade on PostgreSQL) and the ORM path (LMSR)."""

import random
import threading

import pytest
from django.db import connection, connections

from arena import roles
from core.errors import ArenaError
from markets import selectors, services
from markets.makers import LinearMaker
from markets.models import Account, Market, Participant

from ..conftest import make_user
from .conftest import running_game

pytestmark = pytest.mark.django_db(transaction=True)
THREADS = 16


@pytest.fixture(autouse=True)
def postgresql_only():
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL (set DATABASE_URL); SQLite serialises whole transactions")


def crowd(cast, n, **fields):
    users = [make_user(f"bettor{i}", roles.BETTOR) for i in range(n)]
    return running_game(cast, users, **fields), users


def run_threads(work, n):
    barrier, errors = threading.Barrier(n), []

    def body(i):
        try:
            barrier.wait()
            work(i)
        except Exception as exc:  # collected and asserted on below
            errors.append(repr(exc))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=body, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return errors


PATHS = pytest.mark.parametrize("path", ["sql", "python"])


@pytest.mark.slow
@PATHS
def test_16_threads_trading_keep_every_invariant(cast, path):
    game, users = crowd(cast, THREADS, starting_points=1500)
    outcome = {"ok": 0, "refused": 0}
    lock = threading.Lock()

    def work(i):
        rng = random.Random(i)
        for n in range(40):
            action, security = rng.choice(["buy", "buy", "sell"]), rng.choice(["H", "C"])
            try:
                services.trade_place(
                    game_id=game.pk, user=users[i], action=action, security=security, key=f"{i}-{n}", path=path
                )
                kind = "ok"
            except ArenaError:
                kind = "refused"  # not held, other type, bound, points: legitimate refusals
            with lock:
                outcome[kind] += 1

    assert run_threads(work, THREADS) == []
    assert outcome["ok"] > 100
    assert selectors.ledger_audit(game=game) == []  # zero-sum, cached = ledger, >= 0, gap-free seq, price
    accounts = Account.objects.filter(game=game)
    assert sum(a.balance for a in accounts) == 0
    assert not accounts.filter(kind="bettor", balance__lt=0).exists()
    market = Market.objects.get(game=game)
    assert market.seq == outcome["ok"]
    held = {s: sum(p.quantity for p in Participant.objects.filter(game=game, security=s)) for s in "HC"}
    assert (market.q_human, market.q_computer) == (held["H"], held["C"])
    assert market.human_price == 50 + held["H"] - held["C"]
    maker = accounts.get(kind="maker").balance
    for winner in "HC":  # the maker's loss stays within its bound whatever the outcome
        assert maker - 100 * held[winner] >= -LinearMaker().max_loss()


def _simultaneous_buys(game, users, lock, path):
    def work(i):
        services.trade_place(
            game_id=game.pk, user=users[i], action="buy", security="H", key=f"once-{i}", lock=lock, path=path
        )

    errors = run_threads(work, len(users))
    return errors, Market.objects.get(game=game).human_price


@PATHS
def test_with_locks_every_simultaneous_click_counts(cast, path):
    game, users = crowd(cast, THREADS)
    errors, price = _simultaneous_buys(game, users, lock=True, path=path)
    assert errors == [] and price == 50 + THREADS
    assert selectors.ledger_audit(game=game) == []


@PATHS
def test_without_locks_simultaneous_clicks_lose_updates(cast, path):
    """The deliberately broken variant: each thread reads the price unlocked, so several compute
    from the same stale price; the database's unique (game, seq) refuses all but one of them, and
    those bettors' clicks are lost: the price ends below 50 + 16 although all 16 bought."""
    users = [make_user(f"bettor{i}", roles.BETTOR) for i in range(THREADS)]
    lost, errors = 0, []
    for _ in range(5):
        game = running_game(cast, users)
        errors, price = _simultaneous_buys(game, users, lock=False, path=path)
        lost += THREADS - (price - 50)
        assert selectors.ledger_audit(game=game) == []  # the database checks still keep the books sound
        if lost:
            break
    assert lost > 0, "16 simultaneous unlocked clicks never collided"
    assert len(errors) == lost and all("conflict" in e or "collided" in e for e in errors)


def test_a_trade_holds_the_market_row_lock(cast):
    """Deterministic probe: while one transaction holds the market row, another cannot take it."""
    from django.db import DatabaseError, transaction

    game, _ = crowd(cast, 1)
    held, release, probe = threading.Event(), threading.Event(), []

    def holder(i):
        with transaction.atomic():
            Market.objects.select_for_update(of=("self",)).get(game=game)
            held.set()
            release.wait(10)

    def prober(i):
        held.wait(10)
        try:
            with transaction.atomic():
                Market.objects.select_for_update(nowait=True).get(game=game)
            probe.append("acquired")
        except DatabaseError as exc:
            probe.append(str(exc))
        finally:
            release.set()

    assert run_threads(lambda i: (holder, prober)[i](i), 2) == []
    assert probe and "could not obtain lock" in probe[0]
