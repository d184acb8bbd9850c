"""Loading studies from JSON, the demo data, and a pull-mode witness held back by the typing model."""

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from arena.models import Message
from studies.models import Condition, Study
from tests.arena.helpers import wait_for

from .helpers import config, game_for, ready

pytestmark = pytest.mark.django_db


def load(tmp_path, data, *args):
    (tmp_path / "study.json").write_text(data if isinstance(data, str) else json.dumps(data))
    out = StringIO()
    call_command("study", "load", str(tmp_path / "study.json"), *args, stdout=out)
    return out.getvalue()


def test_a_study_is_loaded_from_its_json_file(tmp_path):
    out = load(tmp_path, config(title="Pre-registered study 1"), "--open")
    study = Study.objects.get()
    assert f"study {study.pk}" in out and study.status == "open" and study.slug == "pre-registered-study-1"
    assert list(study.conditions.values_list("name", "persona")) == [("Simple-PERSONA", "PERSONA"), ("ELIZA", "")]
    assert study.design.time_limit_s == 300 and study.seed == 3 and study.strict_alternation
    load(tmp_path, config(title="Pre-registered study 1"))
    assert Study.objects.filter(slug="pre-registered-study-1-2").exists()  # a second load is a new study


@pytest.mark.parametrize(
    "data, message",
    [
        ("{not json", "not valid JSON"),
        ({**config(), "seed": "abc"}, "seed must be a whole number"),
        ({**config(), "format": "four-party"}, "format must be one of"),
        ({**config(), "human_witness_share": 1.5}, "human_witness_share must be from 0 to 1"),
        ({**config(), "witnesses": [{"name": "human", "engine": "simple"}]}, "not 'human'"),
        ({**config(), "witnesses": [{"name": "X", "engine": "no-such-engine"}]}, "Unknown engine"),
        ({**config(), "witnesses": [{"name": "X", "engine": "simple", "settings": {"think_s": -4}}]}, "witness 'X'"),
        ({**config(), "attention_checks": [{"key": "a", "label": "Type blue"}]}, "answer must be"),
    ],
)
def test_a_bad_configuration_is_refused_naming_what_is_wrong(tmp_path, data, message):
    with pytest.raises(CommandError, match=message):
        load(tmp_path, data)
    assert not Study.objects.exists() and not Condition.objects.exists()


@pytest.mark.slow
def test_the_demo_study_is_open_with_results_and_seeding_twice_changes_nothing(client, cast):
    out = StringIO()
    call_command("seed_demo_studies", stdout=out)
    call_command("seed_demo_studies", stdout=out)
    study = Study.objects.get()
    assert "already there" in out.getvalue() and study.status == "open" and study.games.count() >= 20
    client.force_login(cast.olivia)
    page = client.get(f"/studies/{study.pk}/").content.decode()
    assert "ELIZA" in page and "ALICE-PERSONA" in page and "human" in page
    assert "I agree to take part" in client.get("/play/").content.decode()


def test_the_demo_studys_persona_witness_converses_like_a_person_and_has_a_public_label(db):
    """The demo's AI witness is ALICE (AIML) playing Sam: different answers to different questions, in a
    casual hand, never the simple bot's stock line; players are told its label, not its name."""
    from arena.services.engines import engine_standalone_reply
    from bots.engines.simple import SIMPLE_REPLY
    from studies.demo import CONFIG
    from studies.services import study_load

    study = study_load(config=CONFIG, slug="demo-check")
    persona = study.conditions.get(persona="PERSONA")
    assert persona.entry.engine == "aiml" and persona.public_label != persona.name
    assert all(c.label for c in study.conditions.all())
    reply = engine_standalone_reply(engine=persona.entry.engine, engine_settings=persona.entry.settings, key="demo")
    questions = ["hi, how are you?", "How old are you?", "where do you live?", "what is your name?"]
    history, answers = [], []
    for question in questions:
        answers.append(reply(history, question))
        history += [("interrogator", question), ("witness", answers[-1])]
    assert len(set(answers)) == len(answers) and SIMPLE_REPLY not in answers
    assert all(a == a.lower() and not a.endswith(".") for a in answers)  # typed as a person chats
    assert "19" in answers[1] and "leeds" in answers[2] and "sam" in answers[3]


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_pull_witness_answering_at_once_is_shown_no_sooner_than_its_typing_model(cast, task_worker):
    from arena.models import Entry
    from arena.services.pull import pull_reply
    from studies import services

    study = services.study_load(
        config=config(
            human_witness_share=0.0,
            witnesses=[
                {"name": "Pull-bot", "engine": "pull", "settings": {"think_s": 1.0, "per_char_s": 0.05, "jitter": 0}}
            ],
        ),
        status="open",
    )
    (person,) = ready(study)
    game = game_for(person)
    conversation = game.interrogation.conversations.get()
    question = services.game_message_post(
        game=game, conversation_id=conversation.pk, sender_role="interrogator", text="hi there?", user=person.player
    )
    held = pull_reply(
        entry=Entry.objects.get(display_name__startswith="Pull-bot"),
        conversation_key=conversation.public_id,
        text="hello there",
    )  # answered instantly
    assert held is not None and not conversation.messages.filter(sender_role=Message.Role.WITNESS).exists()
    [reply] = wait_for(lambda: list(conversation.messages.filter(sender_role=Message.Role.WITNESS)), timeout=10)
    assert (reply.created_at - question.created_at).total_seconds() >= 1.0 + 11 * 0.05 - 0.01


def test_a_researcher_creates_a_study_in_the_admin_from_its_json(client, cast):
    client.force_login(cast.olivia)
    bad = client.post("/admin/studies/study/add/", {"slug": "bad", "status": "draft", "config_text": '{"seed": 1}'})
    assert bad.status_code == 200 and "witnesses must be a list" in bad.content.decode()
    response = client.post(
        "/admin/studies/study/add/", {"slug": "from-admin", "status": "open", "config_text": json.dumps(config())}
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    study = Study.objects.get(slug="from-admin")
    assert study.status == "open" and study.conditions.count() == 2 and study.owner == cast.olivia
    page = client.get(f"/admin/studies/study/{study.pk}/change/").content.decode()
    assert "Simple-PERSONA" in page and "results and downloads" in page
