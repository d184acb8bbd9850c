"""ELIZA with the DOCTOR script: the 1966 sample conversation, the mechanisms, replay from history."""

import pytest

from bots.base import ReplyContext, Turn
from bots.engines.eliza import DOCTOR, Eliza, ElizaEngine
from bots.engines.eliza.casing import sentence_case
from bots.engines.eliza.script import Memory, Script, keyword, rule
from bots.registry import get_engine

# The sample conversation printed in Weizenbaum (1966). Our DOCTOR reproduces every reply but the
# last: the original picked the MEMORY form by a hash of the input's last word (here "HERE"), and our
# stable hash (CRC-32) picks a different one of the four forms for the same remembered text.
SAMPLE_1966 = [
    ("Men are all alike.", "IN WHAT WAY"),
    ("They're always bugging us about something or other.", "CAN YOU THINK OF A SPECIFIC EXAMPLE"),
    ("Well, my boyfriend made me come here.", "YOUR BOYFRIEND MADE YOU COME HERE"),
    ("He says I'm depressed much of the time.", "I AM SORRY TO HEAR YOU ARE DEPRESSED"),
    ("It's true. I am unhappy.", "DO YOU THINK COMING HERE WILL HELP YOU NOT TO BE UNHAPPY"),
    ("I need some help, that much seems certain.", "WHAT WOULD IT MEAN TO YOU IF YOU GOT SOME HELP"),
    ("Perhaps I could learn to get along with my mother.", "TELL ME MORE ABOUT YOUR FAMILY"),
    ("My mother takes care of me.", "WHO ELSE IN YOUR FAMILY TAKES CARE OF YOU"),
    ("My father.", "YOUR FATHER"),
    ("You are like my father in some ways.", "WHAT RESEMBLANCE DO YOU SEE"),
    (
        "You are not very aggressive but I think you don't want me to notice that.",
        "WHAT MAKES YOU THINK I AM NOT VERY AGGRESSIVE",
    ),
    ("You don't argue with me.", "WHY DO YOU THINK I DON'T ARGUE WITH YOU"),
    ("You are afraid of me.", "DOES IT PLEASE YOU TO BELIEVE I AM AFRAID OF YOU"),
    ("My father is afraid of everybody.", "WHAT ELSE COMES TO MIND WHEN YOU THINK OF YOUR FATHER"),
]
BULLIES_1966 = "DOES THAT HAVE ANYTHING TO DO WITH THE FACT THAT YOUR BOYFRIEND MADE YOU COME HERE"
BULLIES_OURS = "LETS DISCUSS FURTHER WHY YOUR BOYFRIEND MADE YOU COME HERE"


def talk(*lines):
    eliza = Eliza(DOCTOR)
    return [eliza.respond(line) for line in lines]


def test_sample_conversation_of_1966():
    assert talk(*(q for q, _ in SAMPLE_1966)) == [a for _, a in SAMPLE_1966]


def test_sample_conversation_ends_with_the_remembered_boyfriend():
    replies = talk(*(q for q, _ in SAMPLE_1966), "Bullies.")
    assert replies[-1] == BULLIES_OURS
    assert replies[-1].endswith("YOUR BOYFRIEND MADE YOU COME HERE") and BULLIES_1966.endswith(
        "YOUR BOYFRIEND MADE YOU COME HERE"
    )


@pytest.mark.parametrize(
    "line, reply",
    [
        ("I need a friend who listens to me", "WHAT WOULD IT MEAN TO YOU IF YOU GOT A FRIEND WHO LISTENS TO YOU"),
        ("I want my mother to love me", "TELL ME MORE ABOUT YOUR FAMILY"),  # MY (rank 2) outranks I
        ("I think you hate me", "WHY DO YOU THINK I HATE YOU"),  # I/YOU both ways, then =YOU
        ("You're sad.", "WHAT MAKES YOU THINK I AM SAD"),  # PRE (I ARE 3) then YOU's rules
        ("I was happy", "WERE YOU REALLY"),  # WAS (rank 2) outranks I
        ("I dreamed about horses", "REALLY, ABOUT HORSES"),  # DREAMED = DREAMT, linked rules
        ("Do you remember my dog?", "DID YOU THINK I WOULD FORGET YOUR DOG"),
        ("Why don't you help me?", "DO YOU BELIEVE I DON'T HELP YOU"),
        ("Are you a computer?", "DO COMPUTERS WORRY YOU"),  # rank 50 wins
        ("How are you", "WHY DO YOU ASK"),  # HOW = WHAT
        ("Sprechen Sie deutsch?", "I AM SORRY, I SPEAK ONLY ENGLISH"),
        ("Everybody hates me", "REALLY, EVERYBODY"),
        ("I can't sleep", "HOW DO YOU KNOW YOU CAN'T SLEEP"),
        ("I cant sleep", "HOW DO YOU KNOW YOU CAN'T SLEEP"),  # CANT = CAN'T
    ],
)
def test_canonical_replies(line, reply):
    assert talk(line) == [reply]


def test_pronoun_reflection():
    assert talk("My husband says I am always tired of myself") == ["YOUR HUSBAND SAYS YOU ARE ALWAYS TIRED OF YOURSELF"]
    assert talk("You remind me of a friend") == ["IN WHAT WAY"]  # YOU->I, ME->YOU: (0 I REMIND YOU OF 0)
    assert talk("You remind me of my dad") == ["TELL ME MORE ABOUT YOUR FAMILY"]  # DAD->FATHER is FAMILY


def test_memory_is_recalled_when_no_keyword_matches():
    replies = talk("My car is broken.", "The weather today.", "The weather today.")
    assert replies[0] == "YOUR CAR IS BROKEN"
    assert replies[1] == "BUT YOUR CAR IS BROKEN"  # remembered, said when nothing else applies
    assert replies[2] == "I AM NOT SURE I UNDERSTAND YOU FULLY"  # memory used up: NONE


def test_memories_come_back_oldest_first():
    replies = talk("My car is broken.", "My dog is old.", "Hmm.", "Hmm.")
    assert replies[2].endswith("YOUR CAR IS BROKEN")
    assert replies[3].endswith("YOUR DOG IS OLD")


def test_reassembly_rules_rotate_per_decomposition():
    wants = talk(*["I want a new car"] * 7)
    assert wants == [
        "WHAT WOULD IT MEAN TO YOU IF YOU GOT A NEW CAR",
        "WHY DO YOU WANT A NEW CAR",
        "SUPPOSE YOU GOT A NEW CAR SOON",
        "WHAT IF YOU NEVER GOT A NEW CAR",
        "WHAT WOULD GETTING A NEW CAR MEAN TO YOU",
        "WHAT DOES WANTING A NEW CAR HAVE TO DO WITH THIS DISCUSSION",
        "WHAT WOULD IT MEAN TO YOU IF YOU GOT A NEW CAR",  # back to the first
    ]
    # the NONE list rotates too, and input without words is handled like one without keywords
    assert talk("Bananas.", "", "<b>", "Bananas.", "Bananas.") == [
        "I AM NOT SURE I UNDERSTAND YOU FULLY",
        "PLEASE GO ON",
        "WHAT DOES THAT SUGGEST TO YOU",
        "DO YOU FEEL STRONGLY ABOUT DISCUSSING SUCH THINGS",
        "I AM NOT SURE I UNDERSTAND YOU FULLY",
    ]


def test_delimiter_keeps_the_first_clause_with_a_keyword():
    assert talk("Well, I need a holiday. The sea, you know.") == ["WHAT WOULD IT MEAN TO YOU IF YOU GOT A HOLIDAY"]


def context(lines_and_replies, message, key="c1"):
    history = []
    for line, reply in lines_and_replies:
        history += [Turn("interrogator", line), Turn("witness", reply)]
    return ReplyContext(conversation_key=key, history=tuple(history), message=message)


def test_engine_replays_history_to_rebuild_state():
    engine = get_engine("eliza")
    assert isinstance(engine, ElizaEngine)
    played = [(q, a) for q, a in SAMPLE_1966]
    # each reply, computed by a fresh engine from history alone, equals the live interpreter's, in sentence case
    for i, (question, answer) in enumerate(SAMPLE_1966):
        assert engine.reply(context(played[:i], question)) == sentence_case(answer)
    assert get_engine("eliza").reply(context(played, "Bullies.")) == sentence_case(BULLIES_OURS)


def test_replay_ignores_witness_text_and_is_deterministic():
    lines = [("My car is broken.", "whatever a human wrote"), ("I want a new car", "")]
    a = ElizaEngine().reply(context(lines, "Hmm.", key="a"))
    b = ElizaEngine().reply(context(lines, "Hmm.", key="b"))
    assert a == b == "But your car is broken."
    assert ElizaEngine().reply(context(lines, "I want a new car")) == "Why do you want a new car?"


def test_persona_name_is_accepted_and_ignored():
    engine = get_engine("eliza", {"persona": {"name": "Joan", "age": 34}, "think_s": 0.5})
    assert engine.settings["persona"] == {"name": "Joan", "age": "34"}
    assert engine.reply(context([], "Men are all alike.")) == "In what way?"
    assert engine.reply(context([], "What is your name?")) == "I am not interested in names."


def test_script_check_finds_dangling_links_and_bad_part_numbers():
    none = keyword("NONE", 0, rule("0", "GO ON"))
    memory = Memory("MY", rule("0 YOUR 0", "YOUR 3"))
    my = keyword("MY", 0, rule("0", "=NOWHERE"))
    with pytest.raises(ValueError, match="NOWHERE"):
        Script("T", "HI", {"MY": my}, {}, memory, none)
    bad_part = keyword("MY", 0, rule("0 YOUR 0", "YOUR 4"))
    with pytest.raises(ValueError, match="part 4"):
        Script("T", "HI", {"MY": bad_part}, {}, memory, none)


def test_link_loops_end_in_a_fallback():
    none = keyword("NONE", 0, rule("0", "GO ON"))
    memory = Memory("MY", rule("0 YOUR 0", "YOUR 3"))
    table = {"A": keyword("A", 0, link="B"), "B": keyword("B", 0, link="A"), "MY": keyword("MY", 0, rule("0", "OK"))}
    assert Eliza(Script("LOOP", "HI", table, {}, memory, none)).respond("a") == "GO ON"


def test_very_long_input_is_cut_and_answered_quickly():
    import time

    from bots.engines.eliza.interpreter import MAX_TOKENS

    started = time.perf_counter()
    reply = Eliza(DOCTOR).respond("I " * 5000)  # many YOUs: the worst case for patterns like 0 YOU 0 I 0
    assert time.perf_counter() - started < 1.0
    assert reply.startswith("YOU SAY YOU") and len(reply.split()) == 2 + MAX_TOKENS


@pytest.mark.parametrize(
    "said, reply",
    [
        ("Men are all alike.", "In what way?"),
        ("He says I'm depressed much of the time.", "I am sorry to hear you are depressed."),
        ("You don't argue with me.", "Why do you think I don't argue with you?"),
        ("I dreamed about Paris with Anna", "Really, about Paris with Anna."),  # the judge's capitals are names
        ("I REMEMBER LONDON", "Do you often think of london?"),  # shouting names nothing
        ("Sprechen Sie deutsch?", "I am sorry, I speak only English."),
    ],
)
def test_the_engine_answers_in_sentence_case_as_people_write(said, reply):
    assert ElizaEngine().reply(context([], said)) == reply


def test_names_from_earlier_turns_come_back_capitalised():
    earlier = [("My sister Maria lives in Rome.", "")]
    assert ElizaEngine().reply(context(earlier, "Hmm.")) == (
        "Does that have anything to do with the fact that your sister Maria lives in Rome?"
    )
