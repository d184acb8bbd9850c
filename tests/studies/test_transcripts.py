"""Transcript-only judging: displaced human judges on /play/transcripts/, inverted LLM judges through the
gateway (a stub LLM server on loopback), both kept apart from the live verdicts."""

from io import StringIO

import pytest
from django.core.management import call_command

from arena import services as arena
from arena.models import EngineCall, Entry
from studies import selectors, services
from studies.models import TranscriptVerdict
from studies.services.transcripts import inverted_answer_read
from tests.bots.test_llm import StubServer, completion

from .helpers import game_for, player_client, ready, study_make

pytestmark = pytest.mark.django_db


def finished_game(study, people, choice="machine"):
    game = game_for(people[0])
    conversation = game.interrogation.conversations.get()
    services.game_message_post(
        game=game,
        conversation_id=conversation.pk,
        sender_role="interrogator",
        text="what's <b>your</b> name?",
        user=people[0].player,
    )
    arena.interrogation_end(interrogation_id=game.interrogation_id, reason="judge")
    services.game_verdict(game=game, participant=people[0], choice=choice, confidence=70)
    return game


def test_a_displaced_judge_reads_someone_elses_transcript_blind_and_judges_it(client):
    study = study_make(human_witness_share=0.0)
    (interrogator,) = ready(study)
    game = finished_game(study, [interrogator])
    client_b, judge = player_client(study)
    page = client_b.get("/play/transcripts/").content.decode()
    assert "what&#x27;s &lt;b&gt;your&lt;/b&gt; name?" in page and game.condition.name not in page
    assert (
        client_b.post(f"/play/transcripts/{game.public_id}/", {"choice": "left", "confidence": "10"}).status_code == 400
    )
    client_b.post(f"/play/transcripts/{game.public_id}/", {"choice": "machine", "confidence": "80", "reason": "stiff"})
    verdict = TranscriptVerdict.objects.get()
    assert (verdict.kind, verdict.participant, verdict.correct) == ("displaced", judge, True)
    assert "No transcript is waiting" in client_b.get("/play/transcripts/").content.decode()  # once each
    # the interrogator never gets their own game to judge again
    assert services.transcript_next(participant=interrogator) is None
    judging = selectors.study_analysis(study=study, replicates=100)["transcript_judging"]
    assert judging["displaced"]["verdicts"] == 1 and judging["displaced"]["accuracy"] == 1.0
    assert judging["inverted"]["verdicts"] == 0


def test_an_inverted_llm_judge_answers_through_the_gateway(settings):
    study = study_make(human_witness_share=0.0)
    people = ready(study, 2)
    games = [finished_game(study, [p]) for p in people]
    with StubServer(
        [(200, completion("HUMAN 85 - it used slang"), 0), (200, completion("I cannot tell."), 0)]
    ) as server:
        judge = Entry.objects.create(
            display_name="GPT judge",
            engine="llm",
            settings={"base_url": server.url + "/v1", "model": "stub", "api_key": "k"},
        )
        out = StringIO()
        call_command("study", "judge-transcripts", str(study.pk), "--entry", "GPT judge", stdout=out)
        prompt = server.json(0)["messages"][-1]["content"]
    assert "1 of 2 transcripts judged" in out.getvalue()
    assert "Interrogator: what's <b>your</b> name?" in prompt and "HUMAN or AI" in prompt
    verdict = TranscriptVerdict.objects.get()
    assert (verdict.kind, verdict.choice, verdict.confidence, verdict.correct) == ("inverted", "human", 85, False)
    assert EngineCall.objects.filter(entry=judge).count() == 2  # logged by the gateway, like every machine call
    assert verdict.game in games


@pytest.mark.parametrize(
    "text, kind, expected",
    [
        ("AI, 90. Too polished.", "one_to_one", ("machine", 90, "Too polished.")),
        ("human", "one_to_one", ("human", 50, "")),
        ("LEFT 70 because typos", "three_party", ("left", 70, "because typos")),
        ("left 70", "one_to_one", None),
        ("no idea", "three_party", None),
    ],
)
def test_reading_an_llm_judges_answer(text, kind, expected):
    assert inverted_answer_read(text, kind) == expected
