"""Turing the Tables on the arena's results pages: each accepted peer vote is one outcome under "tables"
(the agent voted against judged human by the voter, a language-model judge); no battles; penalties count
nowhere; the filters reach it."""

import datetime as dt

import pytest
from django.test import Client

from arena.results import ResultsQuery
from arena.results.sources import results_collect
from tables.models import Vote
from tests.chat_stub import ChatStub

from .test_game import scripts, vote

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(play):
    with ChatStub(
        scripts(
            Beta=[vote("Alpha", "Alpha is slow."), vote("Alpha", "Alpha hesitated twice.")],
            Gamma=[vote("Alpha", "Alpha typed like a person."), vote("Alpha", "Alpha mentioned lunch.")],
            Alpha=[vote("Beta", "Beta has warm words.")],
        )
    ) as stub:
        return play(stub)


def test_each_peer_vote_is_one_outcome_under_tables(game):
    alpha, beta = (game.agents.get(name=n).entry.display_name for n in ("Alpha", "Beta"))
    document = Client().get("/results/results.json").json()
    rows = {r["witness"]: r for r in {b["format"]: b["rows"] for b in document["rates"]}["tables"]}
    assert (rows[alpha]["judged_human"], rows[alpha]["n"]) == (3, 3) and (
        rows[beta]["judged_human"],
        rows[beta]["n"],
    ) == (1, 1)
    assert {"ci_low", "ci_high"} <= set(rows[alpha])
    assert document["battles"] == 0 and document["ratings"] == []  # votes are no battles
    html = Client().get("/results/").content.decode()
    assert "Turing the Tables votes" in html and '<option value="tables"' in html
    outcomes = results_collect(ResultsQuery(format="tables")).outcomes
    assert len(outcomes) == Vote.objects.count() == 4 and len({o.decision for o in outcomes}) == 4
    assert {o.judge for o in outcomes} == {f"model:{a.entry.display_name}" for a in game.agents.all()}


def test_the_filters_reach_the_votes(game):
    today = dt.datetime.now(dt.UTC).date()
    assert len(results_collect(ResultsQuery(date_from=today, date_to=today, format="tables")).outcomes) == 4
    assert results_collect(ResultsQuery(date_to=today - dt.timedelta(days=1))).outcomes == []
    assert results_collect(ResultsQuery(study="spring")).outcomes == []
    assert results_collect(ResultsQuery(format="two-party")).outcomes == []  # the games are no interrogations
