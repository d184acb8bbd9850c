"""Demo data for studies: a study open on /play/ with built-in engine witnesses (ELIZA, and ALICE, the
AIML engine, playing a 19-year-old from Leeds who chats in lower case and slips on the keys now and
then), and games already played by simulated participants so its results page has figures. Players are
told each AI witness's public label after their verdict, never its internal name."""

from studies.models import Study

DEMO_SLUG = "demo-human-or-ai"
TYPING = {"think_s": 1.5, "per_char_s": 0.06, "jitter": 0.3}
CONFIG = {
    "title": "Human or AI? (demo study)",
    "format": "two-party",
    "minutes": 2,
    "seed": 2023,
    "human_witness_share": 0.5,
    "games_per_participant": 8,
    "human_wait_s": 20,
    "max_message_chars": 300,
    "turn_taking": "strict",
    "witnesses": [
        {
            "name": "ELIZA",
            "engine": "eliza",
            "settings": TYPING,
            "persona": "NO-PERSONA",
            "label": "ELIZA, a chatbot from 1966",
        },
        {
            "name": "ALICE-PERSONA",
            "engine": "aiml",
            "persona": "PERSONA",
            "label": "ALICE, a rule-based chatbot playing a student",
            "settings": {
                **TYPING,
                "style": "casual",
                "persona": {"name": "Sam", "age": "19", "location": "Leeds", "job": "student"},
            },
        },
    ],
    "demographics": [
        {"key": "age", "label": "How old are you?", "type": "number"},
        {
            "key": "llm_use",
            "label": "How often do you use chatbots?",
            "type": "choice",
            "choices": ["never", "monthly", "weekly", "daily"],
        },
    ],
    "attention_checks": [{"key": "colour", "label": "To show you are reading, type the word blue.", "answer": "blue"}],
    "exit_questions": [{"key": "strategy", "label": "What was your strategy?", "type": "text", "required": False}],
}
TRUTH = {"ELIZA": 0.25, "ALICE-PERSONA": 0.45, "human": 0.65}


def seed_demo_studies() -> tuple[Study, bool]:
    """(the demo study, whether it was created now): idempotent."""
    from studies.services import study_load
    from studies.services.simulate import study_play_simulated

    study = Study.objects.filter(slug=DEMO_SLUG).first()
    if study is not None:
        return study, False
    study = study_load(config=CONFIG, slug=DEMO_SLUG, status=Study.Status.OPEN)
    study_play_simulated(study=study, truth=TRUTH, participants=10, seed=CONFIG["seed"])
    return study, True
