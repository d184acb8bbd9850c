"""Property-based fuzzing of every websocket console's frames (hypothesis).

Each console gets arbitrary JSON objects with its known frame types (and unknown ones) and random
fields: text with lone surrogates, zero-width and control characters, huge, NaN and infinite numbers,
nested structures, wrong types, raw non-JSON text. For every frame:

- the answer is the frame's normal one or exactly one error frame, never a ``server_error`` (an
  unhandled exception); ``rate_limited`` is an error frame like any other;
- a frame answered with an error stored nothing;
- what is stored obeys the rules people's text obeys (arena.services.messages.clean_text);
- the socket stays open: a ``state`` frame afterwards still answers.

The consoles run on one event loop in a thread of their own, opened once per console; hypothesis
drives the frames from the test's thread, which checks the database between frames.
"""

import asyncio
import itertools
import json
import math
import threading

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tests.conftest import make_user

pytestmark = pytest.mark.django_db(transaction=True)

# characters that break naive text handling; the lone surrogates and NaN/Infinity are refused by the
# frame parser itself, so they come in a minority of frames (the rest reach the handlers)
ODD = [
    "\u200b",
    "\u200c",
    "\u200d",
    "\u2060",
    "\ufeff",
    "\u202e",
    "\x00",
    "\x1b",
    "\r\n",
    "\t",
    "\u0301",
    "😀",
    "\U0010ffff",
    " ",
    "<script>",
    "' OR 1=1 --",
    "%s%n",
]
SURROGATES = ["\ud800", "\udfff", "a\udc80b"]
texts = st.lists(st.one_of(st.text(max_size=12), st.sampled_from(ODD)), max_size=6).map("".join)
numbers = st.one_of(
    st.integers(),
    st.integers(min_value=-(10**40), max_value=10**40),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([0, 1, -1, 2**31, 2**63, 10**400]),
)
scalars = st.one_of(st.none(), st.booleans(), numbers, texts)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(texts, inner, max_size=4)),
    max_leaves=12,
)
hostile = st.one_of(
    st.sampled_from(SURROGATES),
    st.sampled_from([float("nan"), float("inf"), -float("inf")]),
    texts.map(lambda t: t + "\ud83d"),
)

# plausible values of each field a console reads, so that valid frames are tried as well as junk
PLAUSIBLE = {
    "side": st.sampled_from(["left", "right", "sole", "LEFT", ""]),
    "text": st.one_of(st.sampled_from(["Hello there.", "What is 2+2?", "Four.", " \u200b ", "x" * 1001]), texts),
    "keys": st.one_of(
        st.lists(st.sampled_from(["a", "B", " ", "Return", "BackSpace", "\t", "ab", "\u200b", "\x00"]), max_size=8),
        st.lists(json_values, max_size=3),
    ),
    "choice": st.sampled_from(["left", "right", "human", "machine", "both"]),
    "confidence": st.one_of(st.integers(min_value=-5, max_value=105), st.sampled_from(["50", "50.0", 50.5, True])),
    "reason": texts,
    "action": st.sampled_from(["buy", "sell", "BUY", "hold"]),
    "security": st.sampled_from(["H", "C", "h", "X"]),
    "key": st.one_of(st.uuids().map(str), texts),
    "question": st.one_of(st.integers(min_value=0, max_value=50), st.sampled_from(["1", 1.0, True])),
}
FIELDS = {
    "message": ("side", "text"),
    "typing": ("side",),
    "keys": ("side", "keys"),
    "verdict": ("choice", "confidence"),
    "ask": ("text",),
    "trade": ("action", "security", "key"),
    "answer": ("question", "text"),
}  # what each type reads
RARE = {"end", "start"}  # they change the console for good (an ended interrogation refuses all writes)


def frames(types):
    """A frame: an object with one of ``types`` (or another type, or none) and random fields."""
    weighted = [t for t in sorted(types) for _ in range(1 if t in RARE else 6)]
    frame_type = _mostly(st.sampled_from(weighted), json_values)

    def of_type(t):
        needed = st.fixed_dictionaries(
            {
                name: _mostly(PLAUSIBLE[name], json_values, 9)
                for name in (FIELDS.get(t, ()) if isinstance(t, str) else ())
            }
        )
        others = st.fixed_dictionaries(
            {}, optional={name: _mostly(value, json_values) for name, value in PLAUSIBLE.items()}
        )
        extra = st.dictionaries(texts, json_values, max_size=2)
        return st.builds(lambda x, o, n: {**x, **o, **n, "type": t}, extra, others, needed)

    objects = frame_type.flatmap(of_type)
    spoiled = st.builds(lambda o, k, v: {**o, k: v}, objects, st.sampled_from([*PLAUSIBLE, "type", "x"]), hostile)
    raw = st.one_of(
        st.sampled_from(
            [
                '{"type": "message", "text": 1e999}',
                '{"type": NaN}',
                "[1, 2]",
                "null",
                '"state"',
                '{"type": "state"',
                "{}",
                '{"type": ' * 2000,
                "\ud800",
                '{"type": "state", "x": -Infinity}',
            ]
        ),
        texts.filter(bool),
    )  # (the test client cannot send an empty text frame)
    return _mostly(objects.map(json.dumps), _mostly(spoiled.map(json.dumps), raw))


def _mostly(usual, other, share=8):
    """``usual`` about ``share`` times in ten, else ``other`` (st.one_of does not weigh its branches)."""
    return st.integers(min_value=1, max_value=10).flatmap(lambda i: usual if i <= share else other)


class LoopThread:
    """An event loop in a thread of its own, on which the consoles live for the whole test."""

    def __init__(self):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coroutine, timeout=30.0):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def stop(self):
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


def _world(cast):
    """The consoles' objects: a three-party interrogation with two human witnesses (so nothing but the
    fuzzed frames writes), a running Turing Trade game, an experiment. Returns {console: (path, user)}."""
    from arena import roles, services
    from lambdastar import services as lambdastar_services
    from markets import services as markets

    interrogation = services.interrogation_create(judge=cast.jude, witnesses=[cast.connie, cast.carl], title="fuzz")
    services.interrogation_start(interrogation_id=interrogation.pk)
    keyed = services.interrogation_create(judge=cast.june, witnesses=[cast.carl], keystroke_mode=True)
    services.interrogation_start(interrogation_id=keyed.pk)
    conversation = interrogation.conversations.get(witness_human=cast.connie)
    betty = make_user("betty", roles.BETTOR)
    game = markets.game_create(title="fuzz", humans=[cast.connie], max_bettors=8)
    markets.game_open(game_id=game.pk)
    markets.game_join(game_id=game.pk, user=betty)
    markets.game_start(game_id=game.pk)
    experiment = lambdastar_services.experiment_create(
        owner=cast.oscar,
        name="fuzz",
        seed=1,
        configuration={"rules": "paper", "rng": "pcg64", "episodes": 2, "types": ["ls"], "iterations": 5, "grid": 5},
    )
    return {
        "judge": (f"/ws/judge/{interrogation.public_id}/", cast.jude),
        "judge-keystrokes": (f"/ws/judge/{keyed.public_id}/", cast.june),
        "witness": (f"/ws/witness/{conversation.public_id}/", cast.connie),
        "monitor": ("/ws/monitor/", cast.olivia),
        "bettor": (f"/ws/markets/{game.public_id}/bettor/", betty),
        "target": (f"/ws/markets/{game.public_id}/target/", cast.connie),
        "spectator": (f"/ws/markets/{game.public_id}/watch/", None),
        "experiment": (f"/ws/lambdastar/experiments/{experiment.pk}/", cast.oscar),
    }


CONSUMERS = {
    "judge": "arena.consumers.JudgeConsumer",
    "judge-keystrokes": "arena.consumers.JudgeConsumer",
    "witness": "arena.consumers.WitnessConsumer",
    "monitor": "arena.consumers.MonitorConsumer",
    "bettor": "markets.consumers.BettorConsumer",
    "target": "markets.consumers.TargetConsumer",
    "spectator": "markets.consumers.SpectatorConsumer",
    "experiment": "lambdastar.consumers.ExperimentConsumer",
}
STATE_TYPES = ("state", "progress")


def _actions(console: str) -> dict:
    from django.utils.module_loading import import_string

    return import_string(CONSUMERS[console]).actions


def stored_counts() -> dict:
    from arena.models import Keystroke, Message, Verdict
    from markets.models import Answer, Question, Trade

    return {model.__name__: model.objects.count() for model in (Message, Keystroke, Verdict, Question, Answer, Trade)}


def assert_stored_is_valid():
    """Every stored text obeys the rules of text people type; every verdict is one the rules allow."""
    from arena.models import Message, Verdict
    from arena.services.messages import clean_text
    from markets.models import Answer, Question, Trade

    for text in itertools.chain(
        Message.objects.values_list("text", flat=True),
        Question.objects.values_list("text", flat=True),
        Answer.objects.values_list("text", flat=True),
    ):
        assert clean_text(text) == text, f"stored text {text!r} breaks the text rules"
    for choice, confidence in Verdict.objects.values_list("choice", "confidence"):
        assert choice in ("left", "right", "human", "machine") and 0 <= confidence <= 100
    for action, security, cost in Trade.objects.values_list("action", "security", "cost"):
        assert action in ("buy", "sell") and security in ("H", "C") and math.isfinite(cost)


@pytest.fixture
def console(request, cast, end_stray_sessions, settings):
    """(loop thread, socket, console name) for the console named by the test's parameter. Rate limits are
    raised out of the way: a fuzzer sends three frames an example (tests/core/test_rate_limits.py tests
    the limits themselves)."""
    from tests.arena.wsclient import connect

    for category in ("MESSAGE", "TYPING"):
        setattr(settings, f"ARENA_RATE_{category}_BURST", 10_000)
        setattr(settings, f"ARENA_RATE_{category}_PER_S", 1000.0)
        setattr(settings, f"ARENA_RATE_{category}_PER_USER", 1_000_000)

    name = request.param
    path, user = _world(cast)[name]
    loop = LoopThread()
    socket, accepted, code = loop.run(connect(path, user))
    assert accepted, f"{name}: closed with {code}"
    state = loop.run(socket.receive())
    assert state["type"] in STATE_TYPES
    yield loop, socket, name
    loop.run(socket.close())
    loop.stop()


_sentinels = itertools.count()


async def _exchange(socket, text: str) -> list[dict]:
    """Send the frame, then a sentinel frame of an unknown type: the answers to the frame are what
    arrives before the sentinel's error (a consumer handles one frame at a time, in order)."""
    sentinel = f"sentinel-{next(_sentinels)}"
    await socket.send(text)
    await socket.send({"type": sentinel})
    answers = []
    while True:
        payload = await socket.receive(timeout=10)
        if payload.get("type") == "error" and sentinel in payload.get("message", ""):
            return answers
        answers.append(payload)


async def _state_after(socket) -> dict:
    await socket.send({"type": "state"})
    while True:
        payload = await socket.receive(timeout=10)
        if payload.get("type") in STATE_TYPES:
            return payload


def check_frame(loop, socket, name, text):
    before = stored_counts()
    answers = loop.run(_exchange(socket, text))
    errors = [a for a in answers if a.get("type") == "error"]
    assert len(errors) <= 1, f"{name}: {len(errors)} error frames for one frame {text[:200]!r}: {errors}"
    for error in errors:
        assert set(error) >= {"type", "code", "message"} and isinstance(error["code"], str), error
        assert error["code"] != "server_error", f"{name}: frame {text[:300]!r} raised on the server"
        assert stored_counts() == before, f"{name}: an error frame ({error['code']}), yet something was stored"
    assert_stored_is_valid()
    event(f"error {errors[0]['code']}" if errors else ("stored" if stored_counts() != before else "answered"))
    assert loop.run(_state_after(socket))["type"] in STATE_TYPES  # the socket is still open


FUZZ = settings(
    max_examples=40, deadline=None, database=None, suppress_health_check=list(HealthCheck)
)  # the consoles are meant to last all examples


@pytest.mark.slow  # about 20 s embedded, 45 s in services mode (Redis and PostgreSQL round trips)
@pytest.mark.parametrize("console", sorted(CONSUMERS), indirect=True)
@FUZZ
@given(data=st.data())
def test_every_frame_gets_its_answer_or_one_error(console, data):
    loop, socket, name = console
    text = data.draw(frames(_actions(name)), label="frame")
    check_frame(loop, socket, name, text)


@pytest.mark.parametrize("console", ["judge", "witness", "bettor"], indirect=True)
def test_a_burst_of_bad_frames_costs_one_error_each(console):
    """Fifty malformed frames in a row: fifty error frames (or rate_limited ones), then the state."""
    loop, socket, name = console

    async def burst():
        for i in range(50):
            await socket.send('{"type": "message", "text": "\\ud800"}' if i % 2 else "not json")
        answers = [await socket.receive() for _ in range(50)]
        return answers

    answers = loop.run(burst())
    assert all(a["type"] == "error" and a["code"] in ("bad_frame", "bad_json", "rate_limited") for a in answers)
    assert loop.run(_state_after(socket))["type"] in STATE_TYPES
