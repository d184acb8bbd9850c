"""ALICE on python-aiml: real exchanges, persona predicates, sessions, and the disabled elements."""

import io

import pytest

from bots.base import INTERROGATOR, WITNESS, EngineError, ReplyContext, Turn
from bots.engines import aiml as alice
from bots.engines.aiml import AIMLEngine
from bots.registry import get_engine

PERSONA = {"name": "Robin", "age": "19", "location": "Glasgow"}


@pytest.fixture(scope="module")
def kernel():
    return alice.get_kernel()  # the real ALICE set, loaded once for this module (a few seconds)


def talk(engine, key, *lines):
    """Play ``lines`` as one conversation; return the replies."""
    history, replies = [], []
    for line in lines:
        reply = engine.reply(ReplyContext(key, tuple(history), line))
        history += [Turn(INTERROGATOR, line), Turn(WITNESS, reply)]
        replies.append(reply)
    return replies


def test_registered_and_loads_the_whole_alice_set(kernel):
    assert isinstance(get_engine("aiml"), AIMLEngine)
    assert len(alice.alice_files()) > 60
    assert kernel.numCategories() > 90_000
    assert alice.LOAD_STATS["categories"] == kernel.numCategories()


def test_alice_exchanges(kernel):
    engine = AIMLEngine({"persona": PERSONA})
    replies = talk(
        engine,
        "exchanges",
        "Hello",
        "What is 2 plus 2?",
        "What is the capital of France?",
        "My name is Vincent",
        "Do you know anything about me?",
    )
    assert replies[0] in {"Hi there!", "Hello!", "Hi!", "Hello there!"}
    assert replies[1:3] == ["Four.", "Paris."]
    assert "Vincent" in replies[3]
    assert replies[4].startswith("Vincent is your name.")  # the session remembered the <set>
    assert "exchanges" not in replies[4]  # <id/> does not reveal the conversation key
    assert alice.HIDDEN_ID in replies[4]


def test_persona_predicates_answer_for_the_bot(kernel):
    engine = AIMLEngine({"persona": PERSONA})
    name, location, robot = talk(engine, "persona", "What is your name?", "Where do you live?", "Are you a robot?")
    assert name in {"My name is Robin.", "I am called Robin.", "Call me Robin."}
    assert location == "My location is Glasgow.  Where are you?"
    assert "animal" in robot and "robot" not in robot.lower()
    other = AIMLEngine({"persona": {"name": "Kim"}})  # same kernel, another entry's persona
    assert "Kim" in talk(other, "persona-2", "What is your name?")[0]
    assert alice.DEFAULT_PERSONA["name"] in talk(AIMLEngine(), "persona-3", "What is your name?")[0]


def test_two_conversations_keep_separate_predicates(kernel):
    engine = AIMLEngine({"persona": PERSONA})
    first = talk(engine, "sep-a", "My name is Vincent", "Do you know anything about me?")
    second = talk(engine, "sep-b", "My name is Ada", "Do you know anything about me?")
    assert first[1].startswith("Vincent is your name.")
    assert second[1].startswith("Ada is your name.")
    assert kernel.getPredicate("name", "sep-a") == "Vincent"
    assert kernel.getPredicate("name", "sep-b") == "Ada"


def test_lost_session_is_rebuilt_from_the_history(kernel):
    engine = AIMLEngine({"persona": PERSONA})
    history = (Turn(INTERROGATOR, "My name is Vincent"), Turn(WITNESS, "Hey Vincent."))
    context = ReplyContext("restart", history, "Do you know anything about me?")
    alice.forget("restart")  # as after a restart, or on a worker that never saw this conversation
    assert engine.reply(context).startswith("Vincent is your name.")
    # Answering the same turn again (a retried task) rebuilds rather than double-counting the turns.
    assert engine.reply(context) == engine.reply(context)
    assert kernel._sessions["restart"][alice._TURNS] == 2


def test_random_choices_are_reproducible_per_conversation_and_turn(kernel):
    engine = AIMLEngine()
    lines = ("Hi", "Tell me a joke", "What do you like?", "Why?")
    first = talk(engine, "rng", *lines)
    alice.forget("rng")
    assert talk(engine, "rng", *lines) == first


# --- hardening, on a tiny kernel loaded from a temporary AIML file -------------------------------

EVIL_AIML = """<?xml version="1.0" encoding="UTF-8"?>
<aiml version="1.0">
<category><pattern>RUN IT</pattern>
<template>ran:<system>touch {marker}; echo pwned</system>:done</template></category>
<category><pattern>LEARN IT</pattern>
<template>learned:<learn>{extra}</learn>:done</template></category>
<category><pattern>WHO ARE YOU</pattern>
<template>I am <bot name="name"/> from <bot name="location"/>.</template></category>
</aiml>
"""

EXTRA_AIML = """<?xml version="1.0" encoding="UTF-8"?>
<aiml version="1.0"><category><pattern>SECRET</pattern><template>leaked</template></category></aiml>
"""


@pytest.fixture
def evil_kernel(tmp_path):
    marker, extra = tmp_path / "marker", tmp_path / "extra.aiml"
    extra.write_text(EXTRA_AIML)
    source = tmp_path / "evil.aiml"
    source.write_text(EVIL_AIML.format(marker=marker, extra=extra))
    return alice.load_kernel([str(source)]), marker


def test_system_element_does_not_execute(evil_kernel, monkeypatch):
    kernel, marker = evil_kernel
    calls = []
    monkeypatch.setattr("os.popen", lambda *args, **kwargs: calls.append(args))
    monkeypatch.setattr("subprocess.Popen", lambda *args, **kwargs: calls.append(args))
    assert kernel.respond("run it", "s") == "ran::done"
    assert not marker.exists() and calls == []


def test_system_element_would_execute_in_a_stock_kernel(evil_kernel, monkeypatch):
    """The control: the same category does call os.popen on an unhardened python-aiml kernel."""
    import aiml as pyaiml

    _, marker = evil_kernel
    calls = []

    monkeypatch.setattr("os.popen", lambda *args, **kwargs: calls.append(args) or io.StringIO("pwned"))
    stock = pyaiml.Kernel()
    stock.verbose(False)
    stock.learn(str(marker.parent / "evil.aiml"))
    assert stock.respond("run it", "s") == "ran:pwned:done"
    assert calls and "touch" in calls[0][0]


def test_learn_element_loads_nothing(evil_kernel):
    kernel, _ = evil_kernel
    categories = kernel.numCategories()
    assert kernel.respond("learn it", "s") == "learned::done"
    assert kernel.numCategories() == categories
    assert kernel.respond("secret", "s") == ""


def test_persona_reaches_bot_elements_per_session(evil_kernel):
    kernel, _ = evil_kernel
    one = ReplyContext("p1", (), "Who are you?")
    two = ReplyContext("p2", (), "Who are you?")
    assert alice.converse(kernel, one, {"name": "Robin", "Location": "Glasgow"}) == "I am Robin from Glasgow."
    assert alice.converse(kernel, two, {}) == f"I am Sam from {alice.DEFAULT_PERSONA['location']}."


def test_no_reply_is_an_engine_error(evil_kernel, monkeypatch):
    kernel, _ = evil_kernel
    engine = AIMLEngine()
    monkeypatch.setattr(engine, "kernel", lambda: kernel)
    with pytest.raises(EngineError) as info:
        engine.reply(ReplyContext("empty", (), "nothing matches this"))
    assert not info.value.transient


def test_the_casual_style_types_like_a_person_and_answers_the_usual_questions_from_its_persona():
    from bots.casual import casual_reply, casual_style

    persona = {"name": "Sam", "age": "19", "location": "Leeds"}
    assert casual_reply("How old are you?", "I was activated in 1995.", persona, "k#1") in ("19", "im 19", "19 why")
    assert "activated" not in casual_reply("When were you born?", "I was activated in 1995.", persona, "k#2")
    styled = [casual_style("I am fine. It is raining here. Do you like rain?", f"k#{n}") for n in range(40)]
    assert all(s == s.lower() and not s.endswith(".") and "do you like rain" not in s for s in styled)
    slips = sum(s != "im fine. its raining here" for s in styled)
    assert 3 <= slips <= 25  # a slip of the fingers in some replies, not all
    assert casual_style("Hello there friend.", "k#7") == casual_style(
        "Hello there friend.", "k#7"
    )  # a retry reads the same
