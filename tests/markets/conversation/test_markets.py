"""Conversation markets: opened and closed by the interrogation's schedule, settled at the reveal, void
at an abort (checked against the ledger audit), and nobody in a conversation can trade on it."""

import pytest

from arena import services as arena_services
from arena.models import Interrogation
from core.errors import Closed, NotAllowed
from markets import selectors, services
from markets.models import Game
from tests.conftest import make_user
from tests.markets.conversation.helpers import xmarket, xtrade


@pytest.fixture
def crowd(db):
    return [make_user(f"spectator{i}") for i in range(3)]


def _end_and_judge(market, choice="left", confidence=80):
    interrogation = market.interrogation
    arena_services.interrogation_end(interrogation_id=interrogation.pk, reason="judge")
    arena_services.verdict_submit(
        interrogation_id=interrogation.pk, judge=interrogation.judge, choice=choice, confidence=confidence
    )
    return services.xmarket_sync(market_id=market.pk)


def test_it_is_closed_until_the_interrogation_starts(cast, crowd):
    market = xmarket(cast, start=False)
    with pytest.raises(Closed, match="not running"):
        xtrade(market, crowd[0])
    arena_services.interrogation_start(interrogation_id=market.interrogation_id)
    trade = xtrade(market, crowd[0])
    assert (trade.price_before, trade.price_after) == (50, 51)


def test_it_settles_at_the_reveal_and_the_books_balance(cast, crowd):
    market = xmarket(cast)
    a, b = crowd[:2]
    for _ in range(3):
        xtrade(market, a, "buy", "H")  # a bets the left witness (connie) is human: right
    xtrade(market, b, "buy", "C")
    arena_services.interrogation_end(interrogation_id=market.interrogation_id, reason="judge")
    game = services.xmarket_sync(market_id=market.pk)
    assert game.status == Game.Status.RUNNING and game.target_is_human is None  # not before the verdict
    with pytest.raises(Closed):
        xtrade(market, a)
    game = _end_and_judge(market)
    assert game.status == Game.Status.SETTLED and game.target_is_human is True
    balances = {p.user_id: p.account.balance for p in game.participants.select_related("account")}
    assert balances[a.pk] == 1000 - (51 + 52 + 53) + 300
    assert balances[b.pk] == 1000 - (101 - 53)
    assert selectors.ledger_audit(game=game) == []
    assert services.xmarket_sync(market_id=market.pk).status == Game.Status.SETTLED  # idempotent


def test_a_one_to_one_market_pays_computer_when_the_candidate_is_a_machine(cast, crowd):
    market = xmarket(cast, three_party=False)
    xtrade(market, crowd[0], "buy", "C")
    game = _end_and_judge(market, choice="machine", confidence=70)
    participant = game.participants.select_related("account").get()
    assert game.target_is_human is False
    assert participant.account.balance == 1000 - 51 + 100
    assert selectors.ledger_audit(game=game) == []


def test_an_aborted_interrogation_voids_the_market_and_refunds(cast, crowd):
    market = xmarket(cast, market_maker="lmsr")
    xtrade(market, crowd[0], "buy", "H")
    xtrade(market, crowd[1], "buy", "C")
    Interrogation.objects.filter(pk=market.interrogation_id).update(status="aborted")  # an organiser's abort
    game = services.xmarket_sync(market_id=market.pk)
    assert game.status == Game.Status.VOID
    assert sorted(p.account.balance for p in game.participants.select_related("account")) == [1000, 1000]
    assert selectors.ledger_audit(game=game) == []


def test_the_sweep_settles_what_nobody_looked_at(cast, crowd):
    market = xmarket(cast)
    xtrade(market, crowd[0])
    interrogation = market.interrogation
    arena_services.interrogation_end(interrogation_id=interrogation.pk, reason="judge")
    arena_services.verdict_submit(interrogation_id=interrogation.pk, judge=cast.jude, choice="right", confidence=60)
    assert Game.objects.get(pk=market.game_id).status == Game.Status.RUNNING
    assert services.xmarkets_sweep() == 1
    game = Game.objects.get(pk=market.game_id)
    assert game.status == Game.Status.SETTLED and selectors.ledger_audit(game=game) == []


@pytest.mark.parametrize("who", ["judge", "confederate", "entry_owner", "organiser", "staff"])
def test_nobody_in_the_conversation_can_trade_on_it(cast, who):
    owner = make_user("ada")
    cast.simple.owner = owner
    cast.simple.save()
    staff = make_user("sam")
    staff.is_staff = True
    staff.save()
    user = {
        "judge": cast.jude,
        "confederate": cast.connie,
        "entry_owner": owner,
        "organiser": cast.olivia,
        "staff": staff,
    }[who]
    market = xmarket(cast)
    with pytest.raises(NotAllowed, match="cannot trade on it") as refused:
        xtrade(market, user)
    assert refused.value.code == "conflict_of_interest"
    assert not market.game.participants.exists() and not market.game.trades.exists()


def test_a_spectator_must_log_in(cast):
    from django.contrib.auth.models import AnonymousUser

    market = xmarket(cast)
    with pytest.raises(NotAllowed, match="Log in"):
        xtrade(market, AnonymousUser())


def test_turing_trade_pages_do_not_reach_a_conversation_market(cast):
    market = xmarket(cast)
    with pytest.raises(NotAllowed):
        selectors.game_by_public_id(public_id=market.game.public_id)


def test_the_conversations_people_cannot_watch_its_market_until_the_truth_is_out(client, cast):
    market = xmarket(cast)
    url = f"/markets/conversations/{market.game.public_id}/state.json"
    for who in (cast.connie, cast.jude):  # a witness, and the judge: the price would tell them
        client.force_login(who)
        refused = client.get(url)
        assert refused.status_code == 403 and "once its truth is revealed" in refused.json()["message"]
    arena_services.interrogation_end(interrogation_id=market.interrogation_id, reason="judge")
    client.force_login(cast.connie)
    assert client.get(url).status_code == 403  # over, and the verdict not in yet
    arena_services.verdict_submit(
        interrogation_id=market.interrogation_id, judge=cast.jude, choice="left", confidence=70
    )
    assert client.get(url).status_code == 200
