"""The learner engine (pure Python) and its corpus on the arena side (consent, scrubbing, matching)."""

import pytest

from bots.base import ReplyContext, Turn
from bots.engines.learner import STOCK_LINES, LearnerEngine, MemoryCorpus, Pair, scrub

PAIRS = [
    Pair("are you human or a computer?", "human, obviously. are you?", "", 1),
    Pair("what did you have for breakfast", "coffee and a bagel", "", 2),
    Pair("where do you live", "in leeds, near the station", "", 3),
    Pair("do you like it there", "yes, it's lovely by the river", "where do you live", 4),
    Pair("do you like it there", "no, my job is awful", "where do you work", 5),
]


def engine(pairs=PAIRS, **settings):
    e = LearnerEngine({"fallback": "stock", **settings})
    e.corpus = MemoryCorpus(pairs)
    return e


def ask(e, message, *earlier, key="c1"):
    history = tuple(t for text in earlier for t in (Turn("interrogator", text), Turn("witness", "ok")))
    return e.reply(ReplyContext(conversation_key=key, history=history, message=message))


def test_answers_with_the_reply_to_the_most_similar_prompt():
    e = engine()
    assert ask(e, "are u human or computer??") == "human, obviously. are you?"
    assert ask(e, "What did you eat for breakfast?") == "coffee and a bagel"
    assert e.last_source.startswith("learner pair 2")


def test_the_previous_exchange_decides_between_equal_prompts():
    e = engine()
    assert ask(e, "do you like it there?", "where do you live?") == "yes, it's lovely by the river"
    assert ask(e, "do you like it there?", "where do you work?") == "no, my job is awful"


def test_no_match_falls_back_to_stock_lines_and_empty_corpus_too():
    assert ask(engine(), "what is the square root of a banana") in STOCK_LINES
    assert ask(engine([]), "hello") in STOCK_LINES


@pytest.mark.slow
def test_falls_back_to_alice():
    e = engine(fallback="aiml")
    assert "Sam" in ask(e, "What is your name?")
    assert e.last_source == "fallback aiml"


def test_settings_are_validated():
    with pytest.raises(ValueError):
        LearnerEngine({"fallback": "eliza"})
    with pytest.raises(ValueError):
        LearnerEngine({"context_weight": 2})


@pytest.mark.parametrize(
    "text, stored",
    [
        ("mail me at bob.smith@example.co.uk please", "mail me at please"),
        ("see https://example.com/x?y=1 or www.foo.org", "see or"),
        ("call me on +44 113 496 0000 tonight", ""),  # "call me" introduces a name
        ("ring 0113 496 0000 tonight", "ring tonight"),
        ("my name is Vincent", ""),
        ("https://only.example.com", ""),
        ("fine thanks, you?", "fine thanks, you?"),
    ],
)
def test_scrub_removes_personal_details(text, stored):
    assert scrub(text) == stored


# --- the arena side -------------------------------------------------------------------------


def test_harvest_needs_both_consents_and_stores_no_personal_details(cast):
    from arena import services
    from arena.learning import learner_consent_give, learner_consent_revoke, learner_harvest
    from arena.models import LearnedPair
    from tests.arena.helpers import sides, three_party

    interrogation = three_party(cast)
    human, machine = sides(interrogation)

    def say(role, text, conversation=human):
        user = cast.jude if role == "interrogator" else cast.connie
        services.message_post(conversation_id=conversation.pk, sender_role=role, text=text, user=user)

    say("interrogator", "where do you live?")
    say("witness", "leeds. email me at connie@example.org")
    say("interrogator", "do you like it there?")
    say("witness", "yes, see www.leeds.gov.uk for why")
    say("interrogator", "what's your number?")
    say("witness", "07700 900123")  # nothing left after scrubbing: not stored
    services.message_post(conversation_id=machine.pk, sender_role="interrogator", text="hi bot", user=cast.jude)
    services.interrogation_end(interrogation_id=interrogation.pk, reason="organiser")

    learner_consent_give(user=cast.connie)
    assert learner_harvest(interrogation_id=interrogation.pk) == 0  # the judge has not agreed
    learner_consent_give(user=cast.jude)
    assert learner_harvest(interrogation_id=interrogation.pk) == 2
    learner_harvest(interrogation_id=interrogation.pk)  # idempotent
    rows = list(LearnedPair.objects.order_by("reply_seq").values_list("prompt", "reply", "prev_prompt"))
    assert rows == [
        ("where do you live?", "leeds. email me at", ""),
        ("do you like it there?", "yes, see for why", "where do you live?"),
    ]
    everything = " ".join(" ".join(r) for r in rows)
    assert "@" not in everything and "www" not in everything and "07700" not in everything
    assert learner_consent_revoke(user=cast.jude) == 2 and not LearnedPair.objects.exists()


def test_learner_entry_answers_from_the_database_corpus(cast):
    from arena.learning import DatabaseCorpus
    from arena.models import Entry, LearnedPair
    from arena.services.engines import entry_engine_build

    LearnedPair.objects.create(prompt="are you human or a computer?", reply="human, obviously. are you?")
    LearnedPair.objects.create(prompt="what did you have for breakfast", reply="coffee and a bagel")
    assert len(DatabaseCorpus().candidates("what did you eat for breakfast?", "", context_weight=0.3, limit=5)) >= 1
    e = entry_engine_build(entry=Entry(engine="learner", settings={"fallback": "stock"}))
    assert ask(e, "are you a human or a computer") == "human, obviously. are you?"
    assert ask(e, "What did you eat for breakfast?") == "coffee and a bagel"


def test_an_ended_interrogation_is_harvested_by_a_task(cast, monkeypatch, django_capture_on_commit_callbacks):
    from arena import services
    from arena.learning import learner_consent_give
    from arena.tasks import learner_harvest
    from tests.arena.helpers import three_party

    queued = []
    monkeypatch.setattr("core.dispatch.enqueue_now", lambda task, *args, countdown=0: queued.append((task, args)))
    learner_consent_give(user=cast.connie)
    interrogation = three_party(cast)
    with django_capture_on_commit_callbacks(execute=True):
        services.interrogation_end(interrogation_id=interrogation.pk, reason="organiser")
    assert (learner_harvest, (interrogation.pk,)) in queued
