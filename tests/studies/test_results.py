"""The studies on the arena's results pages: live games as "study-two-party", transcript verdicts as
"transcript-human" / "transcript-llm", each under its study's slug; void games and excluded participants
left out; the games never counted again as the arena's own "two-party"; no judge named in public."""

import pytest
from django.test import Client

from arena.models import Entry
from arena.results import ResultsQuery
from arena.results.sources import results_collect
from studies import services
from studies.models import Game, TranscriptVerdict

from .helpers import ready, study_make
from .test_transcripts import finished_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def played():
    """Three games against machines (two judged human, one machine), one transcript judged by a displaced
    human (human) and one by a language model (machine)."""
    study = study_make(human_witness_share=0.0)
    people = ready(study, 4)
    games = [finished_game(study, [p], choice=c) for p, c in zip(people, ("human", "human", "machine"))]
    services.transcript_judge(participant=people[3], game=games[2], choice="human", confidence=60)
    judge = Entry.objects.create(display_name="GPT judge", engine="llm", settings={"model": "stub"})
    TranscriptVerdict.objects.create(
        game=games[0], kind="inverted", entry=judge, choice="machine", confidence=90, correct=True
    )
    return study, people, games


def blocks(url="/results/results.json"):
    return {b["format"]: b["rows"] for b in Client().get(url).json()["rates"]}


def machines(rows):
    return {r["witness"]: (r["judged_human"], r["n"]) for r in rows if not r["baseline"]}


def test_study_games_and_transcripts_appear_under_their_formats(played):
    study, _, _ = played
    found = blocks()
    assert list(found) == ["study-two-party", "transcript-human", "transcript-llm"]  # no arena "two-party"
    assert sum(n for _, n in machines(found["study-two-party"]).values()) == 3
    assert sum(h for h, _ in machines(found["study-two-party"]).values()) == 2
    assert [(h, n) for h, n in machines(found["transcript-human"]).values()] == [(1, 1)]
    assert [(h, n) for h, n in machines(found["transcript-llm"]).values()] == [(0, 1)]
    row = found["study-two-party"][0]
    assert {"n", "ci_low", "ci_high"} <= set(row)
    html = Client().get("/results/").content.decode()
    assert "Transcripts judged afterwards by language models" in html and '<option value="study-two-party"' in html
    judges = {o.judge for o in results_collect(ResultsQuery(format="transcript-llm")).outcomes}
    assert judges == {"model:GPT judge"}


def test_the_study_filter_and_format_filter(played):
    study, _, _ = played
    other = study_make(human_witness_share=0.0, title="Another")
    assert other.slug != study.slug
    (person,) = ready(other)
    finished_game(other, [person], choice="human")
    mine = blocks(f"/results/results.json?study={study.slug}")
    assert sum(n for _, n in machines(mine["study-two-party"]).values()) == 3
    theirs = blocks(f"/results/results.json?study={other.slug}")
    assert list(theirs) == ["study-two-party"]
    assert sum(n for _, n in machines(theirs["study-two-party"]).values()) == 1
    only = blocks("/results/results.json?format=transcript-human")
    assert list(only) == ["transcript-human"]


def test_void_games_and_excluded_participants_count_nowhere(played):
    study, people, games = played
    Game.objects.filter(pk=games[2].pk).update(voided=True)  # its transcript verdict goes with it
    services.participant_exclude(participant=people[0], rule="manual", detail="bot-like")
    found = blocks()
    assert list(found) == ["study-two-party", "transcript-llm"]  # the inverted verdict is on a kept game
    assert machines(found["study-two-party"]) and sum(n for _, n in machines(found["study-two-party"]).values()) == 1
    assert results_collect(ResultsQuery(format="two-party")).outcomes == []  # still claimed, never two-party


def test_no_participant_is_named_in_public(played):
    _, people, _ = played
    for url in ("/results/", "/results/results.json", "/results/rates.csv", "/results/ratings.csv"):
        body = Client().get(url).content.decode()
        assert "user:" not in body
        for person in people:
            assert person.player.username not in body and str(person.public_id) not in body
