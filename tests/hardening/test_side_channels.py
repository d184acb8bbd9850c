"""No side channel tells a judge who is human: a conversation's own people (its judge, its human witness, an
entry's owner) see no price, trade or bettor of its crowd market until the truth is out (the page, its
JSON, its socket, the lists), while spectators see it after the feed's delay."""

import pytest
from asgiref.sync import sync_to_async

from arena import services as arena_services
from markets import services
from tests.arena.wsclient import connect
from tests.conftest import make_user
from tests.markets.conversation.helpers import xmarket, xtrade

PRICE_SHOWN = "<td>53</td>"  # the list's cell of a market at 53 after three buys of "human"


@pytest.fixture
def traded(cast):
    """A running three-party market (connie, the human, on the left) that a spectator moved to 53."""
    market = xmarket(cast)
    sam = make_user("sam")
    for _ in range(3):
        xtrade(market, sam)
    market.game.market.refresh_from_db()
    assert market.game.market.human_price == 53
    return market


def _settle(market, cast):
    arena_services.interrogation_end(interrogation_id=market.interrogation_id, reason="judge")
    arena_services.verdict_submit(
        interrogation_id=market.interrogation_id, judge=cast.jude, choice="left", confidence=70
    )
    services.xmarket_sync(market_id=market.pk)


@pytest.mark.parametrize("who", ["jude", "connie"])
def test_the_conversations_own_people_read_no_price_on_its_page_or_json(client, cast, traded, who):
    client.force_login(getattr(cast, who))
    page = client.get(f"/markets/conversations/{traded.game.public_id}/")
    state = client.get(f"/markets/conversations/{traded.game.public_id}/state.json")
    assert page.status_code == 403 and "truth is revealed" in page.content.decode()
    assert state.status_code == 403 and "price" not in state.json()
    listed = client.get("/markets/conversations/").content.decode()
    assert PRICE_SHOWN not in listed and "hidden from you until the reveal" in listed


def test_after_the_end_the_judge_still_reads_no_price_before_the_verdict(client, cast, traded):
    arena_services.interrogation_end(interrogation_id=traded.interrogation_id, reason="judge")
    client.force_login(cast.jude)
    assert client.get(f"/markets/conversations/{traded.game.public_id}/state.json").status_code == 403
    assert PRICE_SHOWN not in client.get("/markets/conversations/").content.decode()  # "closed, awaiting the reveal"


def test_spectators_read_the_price_and_the_judge_once_it_is_settled(client, cast, traded):
    client.force_login(make_user("viv"))
    assert client.get(f"/markets/conversations/{traded.game.public_id}/state.json").json()["market"]["price"] == 53
    assert PRICE_SHOWN in client.get("/markets/conversations/").content.decode()
    _settle(traded, cast)
    client.force_login(cast.jude)
    state = client.get(f"/markets/conversations/{traded.game.public_id}/state.json")
    assert state.status_code == 200 and state.json()["reveal"]["human"] is True


@pytest.mark.django_db(transaction=True)
async def test_the_judges_socket_is_refused_and_a_spectators_gets_the_price(cast, end_stray_sessions):
    market = await sync_to_async(xmarket)(cast)
    path = f"/ws/markets/conversations/{market.game.public_id}/"
    _, connected, code = await connect(path, user=cast.jude)
    assert not connected and code == 4403
    viewer = await sync_to_async(make_user)("viv")
    socket, connected, _ = await connect(path, user=viewer)
    assert connected and (await socket.expect("state"))["market"]["price"] == 50
    await socket.close()


def test_a_study_player_reads_no_price_of_their_own_game_on_the_watch_page(client, cast):
    from markets.models import ConversationMarket
    from tests.markets.conversation.test_policies import _study_game

    game = _study_game(True)
    client.force_login(make_user("viv"))
    page = client.get("/play/watch/").content.decode()  # the page opens the game's market
    cm = ConversationMarket.objects.get(interrogation=game.interrogation)
    assert str(cm.game.public_id) in page and "<td>50</td>" in page
    client.force_login(game.interrogation.judge)
    page = client.get("/play/watch/").content.decode()
    assert "<td>50</td>" not in page and "hidden from you until the reveal" in page


# --- typing rhythm -----------------------------------------------------------------------------------

KS_TOLERANCE = 0.06  # two-sample Kolmogorov–Smirnov distance; with 1,400 gaps or more each, p < 0.01


def _ks(a: list[float], b: list[float]) -> float:
    """The largest distance between the two samples' empirical distribution functions."""
    a, b = sorted(a), sorted(b)
    i = j = 0
    worst = 0.0
    while i < len(a) and j < len(b):
        x = min(a[i], b[j])
        while i < len(a) and a[i] == x:
            i += 1
        while j < len(b) and b[j] == x:
            j += 1
        worst = max(worst, abs(i / len(a) - j / len(b)))
    return worst


class FakeLoop:
    """The clock and sleep of a person's socket, run in simulated time: while the relay sleeps, their
    console's typing frames arrive (as the witness console sends them: 1.5 s apart or more while keys go)."""

    def __init__(self):
        self.now, self.frames, self.relay, self.sent_at = 0.0, [], None, None

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        until = self.now + seconds
        while self.frames and self.frames[0] <= until:
            self.now = self.frames.pop(0)
            await self.relay.seen()
        if self.sent_at is not None and self.sent_at <= until:
            self.relay.stop()  # the message is sent
            self.sent_at = None
        self.now = until


def _human_gaps(rng, spells: int) -> list[float]:
    """The gaps between the "is typing" signals a judge gets from people typing `spells` replies, each a
    spell of 4–40 s at the console's throttle (1.5 s, plus 0–1.2 s to the next key), sent at its end."""
    import asyncio

    from bots.typing_delay import TypingRelay

    loop = FakeLoop()
    signals: list[float] = []

    async def signal():
        signals.append(loop.now)

    async def run():
        gaps = []
        relay = loop.relay = TypingRelay(signal=signal, clock=loop.clock, sleep=loop.sleep, rng=rng)
        for _ in range(spells):
            start, end = loop.now + 10.0, loop.now + 10.0 + rng.uniform(4.0, 40.0)
            at, loop.frames = start, []
            while at < end:
                loop.frames.append(at)
                at += 1.5 + rng.uniform(0.0, 1.2)
            loop.now, loop.sent_at = loop.frames.pop(0), end
            del signals[:]
            await relay.seen()
            await relay.task
            gaps += [b - a for a, b in zip(signals, signals[1:], strict=False)]
        return gaps

    return asyncio.run(run())


def _machine_gaps(cast, monkeypatch, rng, spells: int) -> list[float]:
    """The gaps between the signals a machine witness's typing tasks send, for `spells` replies each typed
    for 4–40 s (arena.services.witnesses.bot_typing_signal, as the bot_typing task chains it)."""
    import bots.typing_delay
    from arena.services import witnesses
    from tests.arena.helpers import sides, three_party

    monkeypatch.setattr(bots.typing_delay, "CADENCE_RNG", rng)
    interrogation = three_party(cast)
    _, machine = sides(interrogation)
    gaps = []
    for _ in range(spells):
        remaining = rng.uniform(4.0, 40.0)
        while gap := witnesses.bot_typing_signal(conversation_id=machine.pk, trigger_seq=0, remaining_s=remaining):
            gaps.append(gap)
            remaining -= gap
    return gaps


def test_typing_signals_reach_the_judge_with_one_gap_distribution_for_humans_and_machines(cast, monkeypatch):
    """Seeded: the gaps a judge measures between "is typing" signals are drawn from the same distribution
    whether a person or a machine types (KS distance within KS_TOLERANCE, means within 0.05 s)."""
    import random

    human = _human_gaps(random.Random(1), spells=160)
    machine = _machine_gaps(cast, monkeypatch, random.Random(2), spells=160)
    assert len(human) > 1400 and len(machine) > 1400
    assert _ks(human, machine) < KS_TOLERANCE, _ks(human, machine)
    assert abs(sum(human) / len(human) - sum(machine) / len(machine)) < 0.05
    assert len({round(g, 3) for g in machine}) > 100  # jittered, not one fixed repeat


@pytest.mark.django_db(transaction=True)
async def test_a_persons_typing_frames_are_not_relayed_as_their_console_sends_them(cast, end_stray_sessions):
    """Five typing frames in a row from the witness's console reach the judge as one signal (the next
    comes a gap later), and none follows the message that ends the spell."""
    from tests.arena.helpers import sides, three_party

    interrogation = await sync_to_async(three_party)(cast)
    human, _ = await sync_to_async(sides)(interrogation)
    judge, _, _ = await connect(f"/ws/judge/{interrogation.public_id}/", cast.jude)
    await judge.expect("state")
    witness, _, _ = await connect(f"/ws/witness/{human.public_id}/", cast.connie)
    await witness.expect("state")
    for _ in range(5):
        await witness.send({"type": "typing"})
    assert (await judge.expect("typing"))["side"] == human.side
    assert await judge.silent(timeout=1.0)  # the shortest gap is 1.6 s
    await witness.send({"type": "message", "text": "done"})
    await judge.expect("message", side=human.side)
    assert await judge.silent(timeout=3.5)
    await judge.close()
    await witness.close()


def test_a_pull_programs_typing_calls_are_shown_at_the_one_cadence(cast, monkeypatch):
    """Ten calls in a row show the judge one signal; the next is shown only once a drawn gap has passed,
    and a platform signal (the machine's reply being typed) counts as the last one."""
    from arena import notify
    from arena.services import pull, witnesses
    from tests.arena.helpers import sides, three_party

    interrogation = three_party(cast)
    _, machine = sides(interrogation)
    shown = []
    monkeypatch.setattr(notify, "typing", lambda conversation, by_role: shown.append(by_role))
    clock = [1_000_000.0]
    monkeypatch.setattr(witnesses.time, "time", lambda: clock[0])

    def call():
        return pull.pull_typing(entry=machine.witness_entry, conversation_key=machine.public_id)

    assert all(call() for _ in range(10)) and len(shown) == 1
    clock[0] += 1.5  # sooner than the shortest gap
    assert call() and len(shown) == 1
    clock[0] += 1.4  # past the longest
    assert call() and len(shown) == 2
    clock[0] += 3.0
    witnesses.bot_typing_signal(conversation_id=machine.pk, trigger_seq=0, remaining_s=30.0)
    assert len(shown) == 3 and call() and len(shown) == 3  # right after the platform's own signal
