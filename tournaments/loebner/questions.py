"""The qualifying question sets shipped with the platform, as data (loaded by migration 0002).

2009: the 2009 rules (section 4) give four sets with sample questions; the sample questions are
quoted verbatim, and the memory set's assertion ("I have a friend named Harry who likes to play
tennis.") is followed by one intervening question, as the rules describe. 2017: the order and gist of
the 20 questions come from A.O. Martin's published selection transcripts ; where
those transcripts quote the words they are used, elsewhere the text is a
faithful example of the question's content, not the published wording.

``{time}``, ``{round}``, ``{date}`` and ``{weekday}`` in ``expects`` are filled from the contest clock
when the question is asked, so a time question is scored against the contest's clock and round.
"""

SETS = {
    "2009 rules (four sets)": {
        "source": "Loebner Prize 2009 rules, section 4: sample questions verbatim",
        "questions": [
            ("time", "What time is it?", "about {time} on the contest clock"),
            ("time", "What round is this?", "round {round}"),
            ("time", "Is it morning, noon, or night?", "{part_of_day}"),
            ("things", "What would I use a hammer for?", "hitting nails"),
            ("things", "Of what use is a taxi?", "a ride somewhere, for money"),
            ("relationships", "Which is larger, a grape or a grapefruit?", "a grapefruit"),
            ("relationships", "Which is faster, a train or a plane?", "a plane"),
            (
                "relationships",
                "John is older than Mary, and Mary is older than Sarah. Which of them is the oldest?",
                "John",
            ),
            ("memory", "I have a friend named Harry who likes to play tennis.", "an acknowledgement"),
            ("memory", "What is your favourite colour?", "(intervening question)"),
            ("memory", "What is the name of the friend I just told you about?", "Harry"),
            ("memory", "Do you know what game Harry likes to play?", "tennis"),
        ],
    },
    "2017 selection (20 stateful questions)": {
        "source": "Loebner Prize 2017 finalist selection (A.O. Martin, 15 Aug 2017): order and gist of the "
        "published transcripts; their words where they are quoted, otherwise faithful examples",
        "questions": [
            ("memory", "Hello, my name is Andrew. What's your name?", "a greeting and a name"),
            ("general", "Why don't you tell me a little more about yourself?", "something personal"),
            (
                "memory",
                "I am a researcher in AI at Goldsmiths. Do you know what that involves?",
                "an answer about AI research",
            ),
            ("general", "What do you dream about?", "dreams"),
            ("general", "Can you rephrase that?", "a rephrasing of the previous answer"),
            ("memory", "What is my occupation?", "researcher in AI (from question 3)"),
            ("general", "Can you tell me about a film you haven't seen?", "a humanlike evasion"),
            ("general", "What is your opinion on Trump?", "an opinion"),
            ("general", "Anything else?", "more"),
            ("relationships", "Add 34957 to 70764.", "105721"),
            ("things", "How do you make tea?", "boil water, steep the tea"),
            ("things", "What do you get if you bake dough?", "bread"),
            ("things", "Where in the world would you like to visit?", "a place"),
            ("time", "Do you have the time?", "about {time}"),
            ("things", "What does it take to tango?", "two"),
            ("general", "Do you know what Winograd schemas are?", "an answer"),
            (
                "relationships",
                "I was trying to open the lock with the key, but someone had filled the keyhole "
                "with chewing gum, and I couldn't get it out. What couldn't I get out?",
                "the chewing gum",
            ),
            (
                "relationships",
                "The trophy doesn't fit into the brown suitcase because it's too small. What is too small?",
                "the suitcase",
            ),
            ("general", "What kind of question do you find hardest to answer?", "a kind of question"),
            ("general", "Is there anything you would like to add?", "anything"),
        ],
    },
}


def question_sets_load(question_set_model, question_model) -> None:
    """Create the shipped sets that are missing (the models are passed in: the migration's historical
    ones, or the app's)."""
    for name, spec in SETS.items():
        question_set, created = question_set_model.objects.get_or_create(name=name, defaults={"source": spec["source"]})
        if created:
            question_model.objects.bulk_create(
                [
                    question_model(question_set=question_set, order=i, category=category, text=text, expects=expects)
                    for i, (category, text, expects) in enumerate(spec["questions"], 1)
                ]
            )
