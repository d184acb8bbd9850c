"""The engine interface: registry, settings validation, Simple Bot, typing delay, reply cleaning."""

import math
import random
import subprocess
import sys

import pytest

from bots.base import Engine, EngineError, EngineSettingsError, ReplyContext, Turn, number_setting
from bots.engines.simple import SIMPLE_REPLY, SimpleEngine
from bots.registry import UnknownEngine, engine_choices, get_engine, validate_engine_settings
from bots.sanitize import clean_reply
from bots.typing_delay import TypingModel

CTX = ReplyContext(
    conversation_key="k", history=(Turn("interrogator", "hi"), Turn("witness", "hello")), message="Are you a bot?"
)


def test_simple_bot_says_the_turing_trade_line():
    assert SIMPLE_REPLY == "Hmmm...That's an interesting question."
    engine = get_engine("simple")
    assert isinstance(engine, SimpleEngine)
    assert engine.reply(CTX) == engine.reply(ReplyContext("other", (), "What is 2+2?")) == SIMPLE_REPLY


def test_registry_lists_and_rejects():
    assert engine_choices()[:2] == [("simple", SimpleEngine.label), ("eliza", "ELIZA (Weizenbaum 1966, DOCTOR script)")]
    with pytest.raises(UnknownEngine) as info:
        get_engine("hal9000")
    assert isinstance(info.value, KeyError)
    assert "hal9000" in str(info.value) and "simple" in str(info.value)
    with pytest.raises(UnknownEngine):
        validate_engine_settings("hal9000", {})


def test_importing_bots_imports_no_django():
    code = "import bots, bots.registry, bots.engines.eliza, sys; print('django' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


@pytest.mark.parametrize("name", ["simple", "eliza"])
def test_settings_defaults_and_typing_keys_for_every_engine(name):
    cleaned = validate_engine_settings(name, {"think_s": 2, "max_s": 10})
    assert cleaned["think_s"] == 2.0 and cleaned["max_s"] == 10.0
    assert cleaned["per_char_s"] == TypingModel.per_char_s and cleaned["jitter"] == TypingModel.jitter
    assert validate_engine_settings(name, None) == validate_engine_settings(name, {})
    assert validate_engine_settings(name, cleaned) == cleaned  # stored cleaned settings validate again
    engine = get_engine(name, {"per_char_s": 0.1, "jitter": 0})
    assert engine.typing_model == TypingModel(per_char_s=0.1, jitter=0.0)


@pytest.mark.parametrize(
    "engine_settings, key",
    [
        ({"colour": "red"}, "colour"),
        ({"think_s": -1}, "think_s"),
        ({"per_char_s": -0.01}, "per_char_s"),
        ({"max_s": math.inf}, "max_s"),
        ({"max_s": math.nan}, "max_s"),
        ({"jitter": 1.5}, "jitter"),
        ({"think_s": "2"}, "think_s"),
        ({"think_s": True}, "think_s"),
        ({"think_s": 1e308}, "think_s"),  # finite, but a judge would wait forever
        ({"max_s": 1e308}, "max_s"),
        ({"per_char_s": 3}, "per_char_s"),
        ({"word_pause_s": 60}, "word_pause_s"),
    ],
)
@pytest.mark.parametrize("name", ["simple", "eliza"])
def test_bad_settings_name_the_key(name, engine_settings, key):
    with pytest.raises(EngineSettingsError) as info:
        get_engine(name, engine_settings)
    assert info.value.key == key
    assert str(info.value).startswith(f"{key}:")
    assert isinstance(info.value, ValueError)


def test_settings_must_be_a_mapping_and_name_a_string():
    with pytest.raises(EngineSettingsError, match="settings"):
        validate_engine_settings("simple", ["think_s"])
    with pytest.raises(EngineSettingsError, match="^name:"):
        validate_engine_settings("eliza", {"name": "Joan"})  # a persona's name goes in "persona"


def test_persona_is_common_and_validated():
    for name in ("simple", "eliza"):
        assert validate_engine_settings(name, {})["persona"] == {}
        assert validate_engine_settings(name, {"persona": {" name ": " Sam ", "age": 41}})["persona"] == {
            "name": "Sam",
            "age": "41",
        }
    with pytest.raises(EngineSettingsError, match="^persona:"):
        validate_engine_settings("simple", {"persona": "Sam"})
    with pytest.raises(EngineSettingsError, match="^persona.name:"):
        validate_engine_settings("simple", {"persona": {"name": ["Sam"]}})
    with pytest.raises(EngineSettingsError, match="^persona.bio:"):
        validate_engine_settings("simple", {"persona": {"bio": "x" * 201}})


def test_a_new_engine_declares_its_own_keys():
    class Echo(Engine):
        name, label = "echo", "Echo"
        settings_spec = {"volume": number_setting(1.0, maximum=11)}

        def reply(self, context):
            return context.message * int(self.settings["volume"])

    assert Echo({"volume": 2}).reply(CTX) == "Are you a bot?Are you a bot?"
    assert Echo.validate_settings({})["volume"] == 1.0
    with pytest.raises(EngineSettingsError, match="^volume:"):
        Echo({"volume": 12})


def test_engine_error_carries_transience():
    assert EngineError("timeout", transient=True).transient is True
    assert EngineError("bad config").transient is False


# --- typing delay --------------------------------------------------------------------------------


def test_delay_grows_with_length():
    model = TypingModel(think_s=1.0, per_char_s=0.05, jitter=0.0, max_s=100.0)
    delays = [model.delay("x" * n) for n in (0, 10, 100, 1000)]
    assert delays == [1.0, 1.5, 6.0, 51.0]
    jittery = TypingModel()
    short, long = (jittery.delay(t, random.Random(7)) for t in ("ok", "a much longer reply, with more to type"))
    assert long > short  # same draw, longer text


def test_delay_respects_cap_and_jitter_bounds():
    model = TypingModel(think_s=1.0, per_char_s=0.1, jitter=0.2, max_s=5.0)
    rng = random.Random(1)
    samples = [model.delay("twenty characters!!!", rng) for _ in range(2000)]  # base 3.0 s
    assert 3.0 * 0.8 <= min(samples) < 3.0 * 0.85 and 3.0 * 1.15 < max(samples) <= 3.0 * 1.2
    assert model.delay("x" * 10_000, rng) == 5.0
    assert all(TypingModel(max_s=0).delay("hi", rng) == 0.0 for _ in range(10))
    assert TypingModel(think_s=0, per_char_s=0, jitter=1).delay("hi") == 0.0
    assert 0.0 <= TypingModel(jitter=1).delay("hi", rng) <= 2 * (1.0 + 0.06 * 2)


def test_typing_model_from_settings_validates():
    assert TypingModel.from_settings({}) == TypingModel()
    assert TypingModel.from_settings({"max_s": 3, "unrelated": "ignored"}) == TypingModel(max_s=3.0)
    with pytest.raises(EngineSettingsError) as info:
        TypingModel.from_settings({"per_char_s": -1})
    assert info.value.key == "per_char_s"


def test_word_pauses_are_a_setting_off_by_default():
    assert TypingModel().word_pause_s == 0.0  # stored settings without the key keep their delays
    assert validate_engine_settings("simple", {})["word_pause_s"] == 0.0
    assert TypingModel.from_settings({"word_pause_s": 0.5}) == TypingModel(word_pause_s=0.5)
    model = TypingModel(think_s=1.0, per_char_s=0.1, jitter=0.0, max_s=100.0, word_pause_s=0.5)
    assert model.delay("a, b.") == pytest.approx(1.0 + 0.5 + 2 * 0.5)  # "," and " " are followed by a key
    assert sum(model.delays(list("a, b."))) == pytest.approx(model.delay("a, b."))


def test_per_key_delays_think_first_pause_after_words_and_jitter_each_key():
    model = TypingModel(think_s=2.0, per_char_s=0.1, word_pause_s=0.05, jitter=0.0, max_s=1.0)
    assert model.delays(list("a, b")) == pytest.approx([2.1, 0.1, 0.15, 0.15])  # max_s caps delay() only
    assert model.delays([]) == []
    jittery = TypingModel(think_s=0.0, per_char_s=0.1, jitter=0.5)
    samples = jittery.delays(list("x" * 500), random.Random(3))
    assert min(samples) >= 0.05 and max(samples) <= 0.15 and len(set(samples)) > 400
    assert sum(TypingModel.fast().delays(list("x" * 100))) < 0.5


@pytest.mark.parametrize("kwargs", [{"think_s": -1}, {"word_pause_s": -0.1}, {"jitter": 1.5}])
def test_a_typing_model_out_of_range_is_refused(kwargs):
    with pytest.raises(ValueError):
        TypingModel(**kwargs)


# --- clean_reply ---------------------------------------------------------------------------------


def test_clean_reply_strips_markup_scripts_and_entities():
    raw = '<p>Hello <b>there</b>!</p><script type="text/javascript">alert("x")</script><style>p{}</style>'
    assert clean_reply(raw, max_chars=100) == "Hello there!"
    assert clean_reply("a &lt;script&gt;alert(1)&lt;/script&gt; b", max_chars=100) == "a b"
    assert clean_reply("line one<br>line two <!-- hidden --> end", max_chars=100) == "line one line two end"
    with pytest.raises(EngineError):  # an unclosed script element swallows the rest
        clean_reply("<script>alert(1)", max_chars=100)
    assert clean_reply("5 < 6 and 7 > 3 &amp; fine", max_chars=100) == "5 < 6 and 7 > 3 & fine"


def test_clean_reply_removes_control_and_invisible_characters():
    raw = "he\x00llo\x07 wor\u200bld\u202e \x1b[31mred\r\n\tnext"
    assert clean_reply(raw, max_chars=100) == "hello world [31mred next"
    assert (
        clean_reply("emoji \U0001f642 stays, caf\u0065\u0301 composes", max_chars=100)
        == "emoji \U0001f642 stays, caf\u00e9 composes"
    )


def test_clean_reply_caps_length_at_a_word_boundary():
    text = "the quick brown fox jumps over the lazy dog"
    assert clean_reply(text, max_chars=20) == "the quick brown fox"
    assert clean_reply("x" * 50, max_chars=10) == "x" * 10
    assert len(clean_reply(text * 100, max_chars=500)) <= 500


@pytest.mark.parametrize("raw", ["", "   \n\t ", "<div></div>", "\x00\x01", None, 42])
def test_clean_reply_raises_when_nothing_is_left(raw):
    with pytest.raises(EngineError) as info:
        clean_reply(raw, max_chars=100)
    assert info.value.transient is False


def test_a_witness_starts_typing_only_after_reading_the_message():
    model = TypingModel(think_s=0.5, read_per_char_s=0.05, per_char_s=0.1, jitter=0, max_s=30)
    assert model.schedule("x" * 20, "y" * 10) == pytest.approx((1.5, 2.5))  # read and think, then type
    longer = model.schedule("x" * 40, "y" * 10)
    assert longer[0] > 1.5 and longer[1] - longer[0] == pytest.approx(1.0)  # a longer message takes longer to read
    capped = TypingModel(think_s=1, read_per_char_s=1, per_char_s=1, jitter=0, max_s=5).schedule("x" * 20, "y")
    assert capped == (5, 5)  # never past max_s
    jittery = TypingModel(think_s=1, read_per_char_s=0.05, jitter=0.5)
    assert all(0.5 * 2 <= jittery.schedule("x" * 20, "y")[0] <= 1.5 * 2 for _ in range(50))
    assert TypingModel.fast().schedule("x" * 100, "y")[0] == 0.0  # relaying text already typed: no reading
