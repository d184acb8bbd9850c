"""Judging and results: the arena verdict becomes the meeting's judgment through its stored sides; ranks
are validated; the results page shows winner, totals, n and CIs and per-judge tables, and keeps the
unjudged meetings blind; the organiser's board shows who is green and the breaker."""

import re

import pytest
from django.utils import timezone

from arena.models import EntryHealth
from arena.services import message_post
from core import hashchain
from core.errors import Closed, InvalidInput, NotAllowed
from tests.tournaments.loebner.helpers import finals_make, judge_round, rounds_play
from tournaments.loebner import selectors, services
from tournaments.loebner.models import JudgeRank, Judgment, Meeting

pytest.importorskip("tournaments.loebner.rules.scoring")
pytestmark = pytest.mark.django_db

LABELS = re.compile(r"\b[EJC][0-9]+\b")  # the contest's internal labels: a judge never saw them


def _without_token(page: str) -> str:
    """The page without its CSRF token (random letters that may spell a label)."""
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", page)


def test_the_verdicts_side_becomes_entry_or_confederate_through_the_stored_left(cast):
    contest = finals_make(cast)
    round_ = contest.rounds.order_by("number").first()
    judge_round(round_, lambda m: m.entry.label == "E2")
    assert services.judgments_sync(contest_id=contest.pk) == round_.meetings.count()
    for m in Meeting.objects.filter(round=round_).select_related("judgment", "entry"):
        assert m.judgment.human == ("entry" if m.entry.label == "E2" else "confederate")
    assert services.judgments_sync(contest_id=contest.pk) == 0  # once


def test_ranks_are_refused_with_the_place_that_is_wrong(cast):
    contest = finals_make(cast)
    met = [p.label for p in selectors.judge_entries(contest=contest, judge=contest.participants.get(label="J1"))]
    with pytest.raises(NotAllowed):
        services.ranks_submit(contest_id=contest.pk, judge=cast.oscar, ranks={"E1": 1})
    with pytest.raises(InvalidInput, match="ranks.J1.E9: not one you rank"):
        services.ranks_submit(contest_id=contest.pk, judge=cast.jude, ranks={"E9": 1})
    with pytest.raises(InvalidInput, match="each rank once"):
        services.ranks_submit(contest_id=contest.pk, judge=cast.jude, ranks={label: 1 for label in met})
    with pytest.raises(InvalidInput, match="whole number"):
        services.ranks_submit(contest_id=contest.pk, judge=cast.jude, ranks={met[0]: 99})
    with pytest.raises(InvalidInput, match="whole number"):
        services.ranks_submit(contest_id=contest.pk, judge=cast.jude, ranks={met[0]: True})
    services.ranks_submit(contest_id=contest.pk, judge=cast.jude, ranks={label: i for i, label in enumerate(met, 1)})
    assert JudgeRank.objects.filter(contest=contest).count() == len(met)


def test_the_judge_ranks_the_machines_of_their_meetings_by_round_never_by_label(cast, client):
    """aisb (mean-rank): one item per meeting, its two conversations shown, its machine ranked without the
    judge learning which side it was; the choices are stored against each meeting's entry."""
    contest = finals_make(cast)
    j1 = contest.participants.get(label="J1")
    mine = list(
        Meeting.objects.filter(round__contest=contest, judge=j1).select_related("round", "entry", "interrogation")
    )
    first = min(mine, key=lambda m: m.round.number)
    services.round_start(round_id=first.round_id)
    left = first.interrogation.conversations.get(side="left")
    message_post(conversation_id=left.pk, sender_role="interrogator", text="Good morning, left witness", user=cast.jude)
    client.force_login(cast.jude)
    url = f"/contests/{contest.pk}/rank/"
    page = client.get(url).content.decode()
    assert "Good morning, left witness" in page
    for m in mine:
        assert f'name="rank-r{m.round.number}"' in page and f"Round {m.round.number}" in page
    assert page.count("the machine of this meeting (left or right)") == len(mine)
    assert not LABELS.search(_without_token(page)) and "Finalist" not in page
    assert "rank-E" not in page

    page = client.post(url, {f"rank-r{m.round.number}": 1 for m in mine}).content.decode()
    assert "Give each one a different number" in page and not LABELS.search(_without_token(page))
    assert not JudgeRank.objects.exists()
    client.post(url, {f"rank-r{m.round.number}": m.round.number for m in mine})
    stored = dict(JudgeRank.objects.filter(contest=contest).values_list("ranked__label", "rank"))
    assert stored == {m.entry.label: m.round.number for m in mine}
    page = client.get(url).content.decode()  # the stored ranks fill the form again
    for m in mine:
        assert f'name="rank-r{m.round.number}" min="1" max="{len(mine)}" value="{m.round.number}"' in page
    client.force_login(cast.connie)
    assert client.get(url).status_code == 404


def test_2009_judges_rank_those_they_called_non_human_once_all_are_judged(cast, client):
    contest = finals_make(cast, fmt="2009-rules")
    with pytest.raises(Closed, match="verdict in all your meetings"):
        services.ranks_submit(contest_id=contest.pk, judge=cast.jude, ranks={"E1": 1})
    j1 = contest.participants.get(label="J1")
    mine = Meeting.objects.filter(round__contest=contest, judge=j1).select_related("round", "entry", "confederate")
    called_non_human = set()
    for k, m in enumerate(mine.order_by("round__number")):
        Judgment.objects.create(meeting=m, human="entry" if k % 2 else "confederate", decided_at=timezone.now())
        called_non_human.add(m.confederate.label if k % 2 else m.entry.label)
    client.force_login(cast.jude)
    page = client.get(f"/contests/{contest.pk}/rank/").content.decode()
    assert f"{len(called_non_human)} = most human" in page
    assert not LABELS.search(_without_token(page))
    # each item is the side the judge called the machine, by round: ranked by those, stored against whoever sat there
    keys = {}
    for k, m in enumerate(mine.order_by("round__number")):
        ranked = m.confederate if k % 2 else m.entry
        side = "left" if m.left == ("confederate" if k % 2 else "entry") else "right"
        keys[f"r{m.round.number}-{side}"] = ranked.label
        assert f'name="rank-r{m.round.number}-{side}"' in page
    assert page.count("whom you called the machine") == len(keys)
    with pytest.raises(InvalidInput, match="not one you rank"):
        services.ranks_submit(contest_id=contest.pk, judge=cast.jude, ranks={"E9": 1})
    client.post(f"/contests/{contest.pk}/rank/", {f"rank-{key}": i for i, key in enumerate(sorted(keys), 1)})
    stored = dict(JudgeRank.objects.filter(contest=contest).values_list("ranked__label", "rank"))
    assert stored == {keys[key]: i for i, key in enumerate(sorted(keys), 1)}
    assert set(stored) == called_non_human


def test_all_entities_judges_rank_every_witness_by_round_and_side_left_first(cast, client):
    """2009 as run: every witness met, each by its round and side; within a meeting the left comes first,
    whichever of the two is the entry, and each choice is stored against whoever sat on that side."""
    contest = finals_make(cast, fmt="2009-as-run")
    j1 = contest.participants.get(label="J1")
    mine = list(
        Meeting.objects.filter(round__contest=contest, judge=j1)
        .select_related("round", "entry", "confederate")
        .order_by("round__number")
    )
    assert {m.left for m in mine} == {"entry", "confederate"}  # both placements occur
    client.force_login(cast.jude)
    url = f"/contests/{contest.pk}/rank/"
    page = client.get(url).content.decode()
    assert not LABELS.search(_without_token(page))
    seated, order = {}, []
    for m in mine:
        left, right = (m.entry, m.confederate) if m.left == "entry" else (m.confederate, m.entry)
        seated.update({f"r{m.round.number}-left": left.label, f"r{m.round.number}-right": right.label})
        order += [f'name="rank-r{m.round.number}-left"', f'name="rank-r{m.round.number}-right"']
    positions = [page.index(field) for field in order]
    assert positions == sorted(positions)
    choices = {key: i for i, key in enumerate(sorted(seated), 1)}
    client.post(url, {f"rank-{key}": value for key, value in choices.items()})
    stored = dict(JudgeRank.objects.filter(contest=contest).values_list("ranked__label", "rank"))
    assert stored == {seated[key]: value for key, value in choices.items()}


def test_results_show_winner_totals_intervals_and_keep_unjudged_meetings_blind(cast, client):
    contest = finals_make(cast)
    first, second = contest.rounds.order_by("number")[:2]
    judge_round(first, lambda m: m.entry.label == "E3")
    services.round_start(round_id=second.pk)  # running: nobody has judged it
    client.force_login(cast.olivia)  # the organiser follows the scores live (others once they are published)
    page = client.get(f"/contests/{contest.pk}/results/").content.decode()
    results = selectors.contest_results(contest=contest)
    e3 = next(row for row in results["entries"] if row["label"] == "E3")
    assert e3["judged_human"] == 1 and e3["n"] == 1 and e3["ci_low"] < 1 and e3["ci_high"] == 1
    assert "Finalist 3" in page and 'id="entries"' in page and page.count('class="table judge-table"') == 4
    for judge in results["judges"]:
        for row in judge["rows"]:
            if row["round"] == second.number:
                assert row["human"] is None
    second_rows = [m for m in second.meetings.all()]
    assert all(m.left in ("entry", "confederate") for m in second_rows)
    # the page shows "–" for the left of an unjudged meeting: nothing tells a judge which side is the machine
    unjudged = Meeting.objects.filter(round__contest=contest, interrogation__verdict__isnull=True).count()
    assert unjudged == Meeting.objects.filter(round__contest=contest).count() - first.meetings.count()
    assert page.count("<td>–</td><td>not yet</td>") == unjudged


def test_the_board_shows_who_is_green_and_the_breaker(cast, client):
    contest = finals_make(cast)
    round_ = contest.rounds.order_by("number").first()
    services.round_start(round_id=round_.pk)
    meeting = round_.meetings.select_related("entry__contest_entry__entry").first()
    EntryHealth.objects.create(
        entry=meeting.entry.contest_entry.entry,
        consecutive_failures=3,
        unhealthy_since=timezone.now(),
        last_error="timed out",
    )
    client.force_login(cast.olivia)
    data = client.get(f"/contests/{contest.pk}/board.json").json()
    assert data["round"] == 1 and data["clock"]["phase"] == "talk" and len(data["meetings"]) == round_.meetings.count()
    row = next(r for r in data["meetings"] if r["entry"]["label"] == meeting.entry.label)
    assert row["entry"]["breaker"] == "open" and row["entry"]["green"] is False
    assert row["judge"]["green"] is False  # has not typed yet
    assert "timed out" in client.get(f"/contests/{contest.pk}/board/").content.decode()
    client.force_login(cast.jude)
    assert client.get(f"/contests/{contest.pk}/board/").status_code == 403


@pytest.mark.slow
def test_publishing_the_contest_publishes_its_transcripts_together(cast, client):
    contest = finals_make(cast, fmt="2012")
    rounds_play(contest)
    meetings = Meeting.objects.filter(round__contest=contest)
    assert services.contest_publish(contest_id=contest.pk) == meetings.count()
    data = client.get(f"/contests/{contest.pk}/transcripts.json").json()
    assert len(data["transcripts"]) == meetings.count()
    assert Judgment.objects.filter(meeting__in=meetings).count() == meetings.count()


@pytest.mark.slow
def test_all_the_contests_transcripts_verify_offline_in_one_file(cast, client, tmp_path, monkeypatch, capsys):
    contest = finals_make(cast, fmt="2012")
    rounds_play(contest)
    services.contest_publish(contest_id=contest.pk)
    (tmp_path / "transcripts.json").write_bytes(client.get(f"/contests/{contest.pk}/transcripts.json").content)
    (tmp_path / "keys.json").write_bytes(client.get("/transcripts/keys.json").content)
    monkeypatch.chdir(tmp_path)
    assert hashchain.main(["verify", "transcripts.json", "--key", "keys.json"]) == 0
    lines = capsys.readouterr().out.splitlines()
    # both conversations of each meeting, and its whole record
    assert len(lines) == 3 * Meeting.objects.filter(round__contest=contest).count()
    assert all(line.startswith("OK: transcript ") for line in lines)


def test_contest_verdicts_reach_the_arena_results_as_loebner_not_three_party_once_published(cast):
    from arena.results import ResultsQuery
    from arena.results.sources import sources_registered

    def collected():
        return [o for source in sources_registered() for o in source.outcomes(ResultsQuery())]

    contest = finals_make(cast, fmt="2012")
    first = contest.rounds.get(number=1)
    judge_round(first, lambda m: m.entry.label == "E1")
    assert collected() == []  # not yet, nor as three-party: the contest's results are not published
    for later in contest.rounds.exclude(pk=first.pk).order_by("number"):
        judge_round(later, lambda m: False)
    services.contest_publish(contest_id=contest.pk)
    outcomes = collected()
    assert {o.format for o in outcomes} == {"loebner"}
    assert len(outcomes) == 2 * Meeting.objects.filter(round__contest=contest).count()
    machine = [o for o in outcomes if o.witness_is_machine and o.judged_human]
    assert [o.witness for o in machine] == ["Finalist 1"]


def _tied_2012(cast, favourites=("E1", "E3")):
    """A 2012-format contest (no ranks) whose judges picked the favourites as human once each: level at the top."""
    contest = finals_make(cast, fmt="2012")
    picked = set()
    for round_ in contest.rounds.order_by("number"):

        def pick(m):
            if m.entry.label in favourites and m.entry.label not in picked:
                picked.add(m.entry.label)
                return True
            return False

        judge_round(round_, pick)
    return contest


@pytest.mark.slow
def test_the_organiser_names_the_winner_only_among_entries_the_rules_leave_tied(cast, client):
    contest = _tied_2012(cast)
    services.judgments_sync(contest_id=contest.pk)
    results = selectors.contest_results(contest=contest)
    assert results["winner"] is None and [t["label"] for t in results["tied"]] == ["E1", "E3"]
    page = client.get(f"/contests/{contest.pk}/results/").content.decode()
    # unpublished: the public (a judge among them) reads no score, so no tie either; only organisers decide it
    assert 'id="tie"' not in page and 'id="tie-form"' not in page and 'id="not-published"' in page
    with pytest.raises(InvalidInput, match="E1, E3"):
        services.contest_tie_decide(contest_id=contest.pk, entry_label="E2", by=cast.olivia)
    client.force_login(cast.olivia)
    page = client.get(f"/contests/{contest.pk}/results/").content.decode()
    assert 'id="tie"' in page and 'id="tie-form"' in page
    response = client.post(f"/contests/{contest.pk}/tie/", {"winner": "E3"}, follow=True)
    page = response.content.decode()
    assert "Winner: Finalist 3" in page and "named by the organiser" in page
    contest.refresh_from_db()
    assert contest.tie_winner == "E3" and contest.tie_decided_by == cast.olivia
    assert client.post(f"/contests/{contest.pk}/tie/", {"winner": "E9"}, follow=True).status_code == 200
    contest.refresh_from_db()
    assert contest.tie_winner == "E3"  # a refused choice changes nothing

    from tests.tournaments.loebner.helpers import contest_make

    unplayed = contest_make("Unplayed Prize", fmt="2012")  # nothing to score: nothing to break
    with pytest.raises(Closed):
        services.contest_tie_decide(contest_id=unplayed.pk, entry_label="E1", by=cast.olivia)


def test_no_organiser_overrules_a_winner_the_rules_name(cast):
    from core.errors import Conflict

    contest = _tied_2012(cast, favourites=("E2",))
    with pytest.raises(Conflict, match="E2"):
        services.contest_tie_decide(contest_id=contest.pk, entry_label="E1", by=cast.olivia)
    services.judgments_sync(contest_id=contest.pk)
    assert selectors.contest_results(contest=contest)["winner_label"] == "E2"


def test_a_judge_may_not_name_the_winner(cast, client):
    contest = _tied_2012(cast)
    client.force_login(cast.jude)
    assert client.post(f"/contests/{contest.pk}/tie/", {"winner": "E1"}).status_code == 403
    contest.refresh_from_db()
    assert contest.tie_winner == ""
