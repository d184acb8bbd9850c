"""A contest's judges learn which witness was the human, and whether they were right, only when its results are
published: not from their console's state, the contest's results page, the arena's results, a meeting's crowd
market, a transcript, nor from an interrogation a round's restart replaced. Once published, all of them tell."""

import json

import pytest
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse

from arena.results.sources import ResultsQuery
from arena.selectors.interrogations import judge_state
from arena.services.verdicts import reveal_allowed
from tests.tournaments.loebner.helpers import finals_make, judge_round
from tournaments.loebner import services
from tournaments.loebner.results import LoebnerResults

pytest.importorskip("tournaments.loebner.rules.scoring")
pytestmark = pytest.mark.django_db

SECRETS = ("Finalist", "connie", "machine", "human", "confederate", "entry")


def _first_round_judged(cast, **fields):
    """A 2012-format final (no ranks) whose first round is played and judged: every judge picked the confederate."""
    contest = finals_make(cast, fmt="2012", **fields)
    first = contest.rounds.get(number=1)
    judge_round(first, lambda m: False)
    return contest, first.meetings.select_related("interrogation").get(judge__label="J1")


def _publish(contest):
    for round_ in contest.rounds.exclude(number=1).order_by("number"):
        judge_round(round_, lambda m: False)
    services.contest_publish(contest_id=contest.pk)
    contest.refresh_from_db()


def test_the_judges_state_holds_the_truth_back_until_the_results_are_published(cast):
    contest, meeting = _first_round_judged(cast)
    assert reveal_allowed(meeting.interrogation_id) is False
    state = judge_state(interrogation=meeting.interrogation)
    assert state["verdict"]["choice"] in ("left", "right")  # the judge's own verdict, as they gave it
    assert state["reveal"] is None and state["correct"] is None and state["reveal_later"] is True
    text = json.dumps(state)
    for secret in SECRETS:
        assert secret not in text, secret

    _publish(contest)
    state = judge_state(interrogation=meeting.interrogation)
    assert state["reveal_later"] is False and state["correct"] is True  # they picked the confederate
    kinds = {side: shown["kind"] for side, shown in state["reveal"].items()}
    entry_side = "left" if meeting.left == "entry" else "right"
    assert kinds[entry_side] == "machine" and state["reveal"][entry_side]["name"].startswith("Finalist")
    assert set(kinds.values()) == {"machine", "human"}


def test_a_plain_interrogation_still_reveals_at_once_beside_a_contest(cast):
    from tests.arena.helpers import finished_chat

    _first_round_judged(cast)
    interrogation, human, machine = finished_chat(cast)
    state = judge_state(interrogation=interrogation)
    assert state["reveal_later"] is False and state["correct"] is True
    assert state["reveal"][machine.side] == {"kind": "machine", "name": "Simple Bot"}


def test_the_results_page_shows_no_pick_or_side_before_publication_but_to_organisers(cast, client):
    contest, _ = _first_round_judged(cast)
    url = f"/contests/{contest.pk}/results/"
    for who in (cast.jude, None):  # the judge, and anyone (the judge logged out)
        client.logout()
        if who:
            client.force_login(who)
        page = client.get(url).content.decode()
        assert 'id="not-published"' in page and 'id="judges-not-published"' in page
        assert "judge-table" not in page and "Picked as human" not in page and "Judged human" not in page
    client.force_login(cast.olivia)  # the organiser follows the contest live
    page = client.get(url).content.decode()
    assert page.count('class="table judge-table"') == 4 and "Picked as human" in page

    _publish(contest)
    client.force_login(cast.jude)
    page = client.get(url).content.decode()
    assert 'id="not-published"' not in page and page.count('class="table judge-table"') == 4
    assert "Judged human" in page and "<td>confederate</td>" in page


def test_the_arena_results_count_a_contest_once_its_results_are_published(
    cast, client, django_capture_on_commit_callbacks
):
    contest, _ = _first_round_judged(cast)
    assert list(LoebnerResults().outcomes(ResultsQuery())) == []
    assert "Finalist" not in client.get("/results/results.json").content.decode()
    with django_capture_on_commit_callbacks(execute=True):  # publishing moves the cached results' version
        _publish(contest)
    outcomes = list(LoebnerResults().outcomes(ResultsQuery()))
    assert len(outcomes) == 2 * contest.rounds.count() * 4 and {o.format for o in outcomes} == {"loebner"}
    assert "Finalist" in client.get("/results/results.json").content.decode()


def test_a_meetings_crowd_market_settles_only_when_the_results_are_published(cast, client):
    from markets.conversation import selectors as xselectors
    from markets.conversation.services import xmarket_sync, xmarkets_ensure, xmarkets_sweep
    from markets.models import ConversationMarket, Game

    contest = finals_make(cast, fmt="2012", spectator_markets=True, spectator_delay_s=0)
    first = contest.rounds.get(number=1)
    meeting = first.meetings.get(judge__label="J1")
    xmarkets_ensure(interrogation_ids=[meeting.interrogation_id])
    judge_round(first, lambda m: False)
    market = ConversationMarket.objects.select_related("game", "interrogation").get(
        interrogation_id=meeting.interrogation_id
    )
    game = xmarket_sync(market_id=market.pk)
    assert game.status != Game.Status.SETTLED and game.target_human_id is None and game.target_entry_id is None
    xmarkets_sweep()
    market.refresh_from_db()
    assert xselectors.xmarket_state(cm=market, user=AnonymousUser())["reveal"] is None
    page = client.get(reverse("markets:xwatch", args=[market.game.public_id])).content.decode()
    for secret in ("Finalist", "connie"):
        assert secret not in page
    listed = client.get("/markets/conversations/").content.decode().split('id="xmarkets-ended"')[1]
    assert str(market.game.public_id) in listed and "closed, awaiting the reveal" in listed

    _publish(contest)
    xmarkets_sweep()  # the markets' sweep settles it now the truth may be told
    game.refresh_from_db()
    assert game.status == Game.Status.SETTLED
    market = ConversationMarket.objects.select_related("game", "interrogation").get(pk=market.pk)
    reveal = xselectors.xmarket_state(cm=market, user=AnonymousUser())["reveal"]
    assert reveal is not None and reveal["human"] is (meeting.left == "confederate")  # the market is on the left


def test_an_interrogation_a_restart_replaced_keeps_the_truth_back_too(cast):
    contest, meeting = _first_round_judged(cast)
    old = meeting.interrogation
    services.round_restart(round_id=meeting.round_id)  # in the review: the verdicts were given already
    meeting.refresh_from_db()
    assert meeting.interrogation_id != old.pk and hasattr(old, "verdict")
    state = judge_state(interrogation=old)
    assert state["reveal"] is None and state["correct"] is None and state["reveal_later"] is True
    assert list(LoebnerResults().outcomes(ResultsQuery())) == []
    from arena.results.arena_source import ArenaResults

    assert list(ArenaResults().outcomes(ResultsQuery())) == []  # not counted as a plain three-party either


def test_a_meetings_transcript_is_not_readable_before_publication(cast, client):
    contest, meeting = _first_round_judged(cast)
    client.force_login(cast.jude)
    public_id = meeting.interrogation.public_id
    assert client.get(f"/transcripts/{public_id}/").status_code == 404
    assert client.get(f"/transcripts/{public_id}.json").status_code == 404
    _publish(contest)
    assert client.get(f"/transcripts/{public_id}.json").json()["verdict"]["correct"] is True
