"""The wager trials on the arena's results pages: each judge's verdict on each candidate, as format "wager",
once the session's results are published; battles from the ranks; the interviews never counted as two-party;
judges never named in public."""

import datetime as dt

import pytest
from django.test import Client

from arena.results import ResultsQuery
from arena.results.sources import results_collect
from tests.tournaments.wager_helpers import fooled_by, judge_all, run_trial, wager_session
from tournaments.wager.models import TrialVerdict


def _judge_trial(trial, judges):
    """Two of three judges take the computer for a human; everyone ranks it most human but the third judge, who
    ranks it least human."""
    run_trial(trial)
    fooled_by(trial, judges[:2], 2)
    judge_all(
        trial,
        {
            judges[2]: (
                {"computer": "machine", "F1": "human", "F2": "human", "F3": "human"},
                {"computer": 1, "F1": 4, "F2": 3, "F3": 2},
            )
        },
    )


@pytest.fixture
def judged(cast):
    """A session whose three trials are judged alike (``_judge_trial``): its results are published."""
    session = wager_session(cast)
    judges = [seat.user for seat in session.judges.all()]
    for trial in session.trials.order_by("number"):
        _judge_trial(trial, judges)
    return session


def test_a_session_counts_only_once_its_results_are_published(cast, django_capture_on_commit_callbacks):
    session = wager_session(cast)
    judges = [seat.user for seat in session.judges.all()]
    trials = list(session.trials.order_by("number"))
    for trial in trials[:2]:
        _judge_trial(trial, judges)
    assert results_collect(ResultsQuery(format="wager")).outcomes == []
    assert "wager" not in {b["format"] for b in Client().get("/results/results.json").json()["rates"]}
    with django_capture_on_commit_callbacks(execute=True):  # the verdicts move the cached results' version
        _judge_trial(trials[2], judges)  # the last trial's verdicts: the session's results are published
    assert len(results_collect(ResultsQuery(format="wager")).outcomes) == 36
    assert "wager" in {b["format"] for b in Client().get("/results/results.json").json()["rates"]}


def test_wager_verdicts_appear_under_their_format_with_rates(judged, cast):
    document = Client().get("/results/results.json").json()
    blocks = {b["format"]: b["rows"] for b in document["rates"]}
    assert "wager" in blocks and "two-party" not in blocks  # the interviews carry no arena verdict, and are claimed
    computer = next(r for r in blocks["wager"] if r["witness"] == cast.simple.display_name)
    human = next(r for r in blocks["wager"] if r["baseline"])
    assert (computer["judged_human"], computer["n"]) == (6, 9)
    assert (human["judged_human"], human["n"]) == (27, 27)
    assert computer["ci_low"] < 2 / 3 < computer["ci_high"]
    # battles: per judge and trial, the computer against each of three foils by rank: 2 judges x 3 wins, 1 judge x
    # 3 losses, in each of the three trials
    wager = Client().get("/results/results.json?format=wager").json()
    assert wager["battles"] == 27
    html = Client().get("/results/").content.decode()
    assert "Long Now wager trials" in html and '<option value="wager"' in html


def test_battles_follow_the_ranks_and_the_filters(judged, cast):
    collected = results_collect(ResultsQuery(format="wager"))
    wins = sum(b.winner == "a" for b in collected.battles)
    assert wins == 18 and {b.a for b in collected.battles} == {cast.simple.display_name}
    assert all(b.b.startswith("human:") for b in collected.battles)
    assert len({o.decision for o in collected.outcomes}) == 9 and len(collected.outcomes) == 36
    assert results_collect(ResultsQuery(format="wager", study="spring")).outcomes == []
    assert results_collect(ResultsQuery(format="three-party")).outcomes == []
    yesterday = dt.date.today() - dt.timedelta(days=1)
    assert results_collect(ResultsQuery(date_to=yesterday, format="wager")).battles == []
    TrialVerdict.objects.update(submitted_at=dt.datetime(2026, 1, 5, 10, tzinfo=dt.UTC))
    assert len(results_collect(ResultsQuery(date_from=dt.date(2026, 1, 5), date_to=dt.date(2026, 1, 5))).outcomes) == 36


def test_a_judge_is_never_named_in_public(judged, cast):
    for url in ("/results/", "/results/results.json", "/results/rates.csv", "/results/ratings.csv"):
        body = Client().get(url).content.decode()
        for person in (cast.jude, cast.june, cast.connie, cast.carl):
            assert person.username not in body, (url, person.username)
    assert Client().get("/results/judges/").status_code in (302, 403)


def test_rehearsals_count_nowhere(cast):
    session = wager_session(cast, minutes=1, rehearsal=True, title="Rehearsal")
    judges = [s.user for s in session.judges.all()]
    trial = session.trials.get(number=1)
    run_trial(trial)
    fooled_by(trial, judges, 3)
    assert TrialVerdict.objects.filter(trial=trial).count() == 12
    assert results_collect(ResultsQuery()).outcomes == []
