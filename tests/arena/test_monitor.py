"""The organisers' live view: what is running comes first, in the page as served; the interrogations that
ended and await a verdict, and the scheduled ones, are folded below with their counts."""

import re

import pytest

from arena import services
from arena.selectors import interrogations
from tests.arena.helpers import three_party

pytestmark = pytest.mark.django_db


def _four(cast):
    """An interrogation running (made first, so the oldest), two ended without a verdict and one scheduled."""
    running = three_party(cast)
    ended = []
    for judge, confederate in ((cast.june, cast.carl), (cast.june, cast.connie)):
        interrogation = three_party(cast, judge=judge, confederate=confederate, machine=cast.eliza)
        services.interrogation_end(interrogation_id=interrogation.pk, reason="judge")
        ended.append(interrogation)
    scheduled = three_party(cast, confederate=cast.carl, start=False)
    return running, ended, scheduled


def test_the_running_interrogation_comes_first_and_the_rest_is_folded_with_counts(cast, client):
    running, ended, scheduled = _four(cast)
    client.force_login(cast.olivia)
    response = client.get("/monitor/")
    assert response.status_code == 200
    page = response.content.decode()

    def at(interrogation):
        return page.index(f'id="interrogation-{interrogation.pk}"')

    assert at(running) < min(at(i) for i in ended) and max(at(i) for i in ended) < at(scheduled)
    # the running one sits in the open section; the others inside closed <details>, each with its count
    running_section = page[page.index('id="monitor-running"') : page.index('id="monitor-ended"')]
    assert f'id="interrogation-{running.pk}"' in running_section and "Running <span" in running_section
    assert re.search(r'<details id="monitor-ended"[^>]*>\s*<summary>Ended, awaiting the verdict', page)
    assert re.search(r'<details id="monitor-scheduled"[^>]*>\s*<summary>Scheduled', page)
    folds = re.findall(r"<details[^>]*>", page)
    assert len(folds) == 2 and not any(" open" in tag for tag in folds)
    assert 'Ended, awaiting the verdict <span class="count">(2)</span>' in page
    assert 'Scheduled <span class="count">(1)</span>' in page
    assert "Three-party · judge jude · Running" in page  # readable before the socket connects


def test_the_monitors_state_lists_running_then_ended_then_scheduled(cast):
    running, ended, scheduled = _four(cast)
    ids = [i["id"] for i in interrogations.monitor_state()["interrogations"]]
    assert ids == [running.pk, ended[1].pk, ended[0].pk, scheduled.pk]  # the latest ended first
    services.verdict_submit(interrogation_id=ended[0].pk, judge=cast.june, choice="left", confidence=50)
    ids = [i["id"] for i in interrogations.monitor_state()["interrogations"]]
    assert ids == [running.pk, ended[1].pk, scheduled.pk]  # a decided interrogation leaves the view


def test_running_interrogations_are_never_cut_off_by_many_scheduled_ones(cast, monkeypatch):
    monkeypatch.setattr(interrogations, "MONITOR_LIMIT", 3)
    running = three_party(cast)
    for _ in range(4):
        three_party(cast, confederate=cast.carl, start=False)
    shown = interrogations.monitor_interrogations()
    assert len(shown) == 3 and shown[0].pk == running.pk


def test_nothing_running_says_so_and_only_organisers_open_the_view(cast, client):
    assert client.get("/monitor/").status_code == 302
    client.force_login(cast.jude)
    assert client.get("/monitor/").status_code == 302  # judges are not staff
    client.force_login(cast.olivia)
    page = client.get("/monitor/").content.decode()
    assert "Nothing is running now." in page and 'Running <span class="count">(0)</span>' in page
