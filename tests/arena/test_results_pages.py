"""The results pages: a public leaderboard (ratings with their intervals drawn, battles, who beat whom),
pass rates beside the human baseline, judges' accuracy for organisers only; computed once per verdict."""
from unittest import mock

import pytest
from django.core.cache import cache
from django.test import Client

from arena import stats
from tests.arena.helpers import decided


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def verdicts(cast):
    for k in range(3):
        decided(cast, witnesses=[cast.connie, cast.simple], judged_human=cast.simple if k == 0 else cast.connie)
    decided(cast, witnesses=[cast.carl, cast.eliza], judged_human=cast.carl, judge=cast.june)
    decided(cast, witnesses=[cast.eliza], judged_human=cast.eliza)
    return cast


def logged_in(user):
    client = Client()
    client.force_login(user)
    return client


def test_public_leaderboard_shows_ratings_intervals_and_pass_rates(verdicts):
    page = Client().get("/results/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "<svg" in html and html.count("<circle") == 3  # one rating mark per witness
    assert 'id="ratings"' in html and "Simple Bot" in html and "ELIZA" in html
    assert "humans (baseline)" in html and 'data-kind="three_party"' in html and 'data-kind="one_to_one"' in html
    assert "ELIZA won every battle" not in html  # ELIZA won one and lost one
    assert "connie" not in html and "carl" not in html  # confederates are pooled, never named


def test_results_are_computed_once_per_verdict(verdicts):
    with mock.patch("arena.selectors.stats.ratings_compute", wraps=stats.ratings_compute) as compute:
        assert Client().get("/results/").status_code == 200
        assert Client().get("/results/").status_code == 200
        assert compute.call_count == 1
        decided(verdicts, witnesses=[verdicts.connie, verdicts.eliza], judged_human=verdicts.eliza)
        page = Client().get("/results/")
        assert compute.call_count == 2
    assert "6 battles" in page.content.decode()


def test_judges_page_is_for_organisers_only(verdicts):
    assert Client().get("/results/judges/").status_code == 302  # to the login page
    assert logged_in(verdicts.jude).get("/results/judges/").status_code == 403
    page = logged_in(verdicts.olivia).get("/results/judges/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "jude" in html and "june" in html and 'id="judges"' in html


def test_results_page_without_verdicts(cast):
    html = Client().get("/results/").content.decode()
    assert "No verdicts yet." in html
