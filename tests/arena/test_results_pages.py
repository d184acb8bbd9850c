"""The results pages: a public leaderboard (ratings with their intervals drawn, battles, who beat whom),
pass rates beside the human baseline per format, an entry's own page, judges' accuracy for organisers only;
filters, downloads, and a cache shared by every process that only a new verdict invalidates."""

import csv
import io
from unittest import mock

import pytest
from django.test import Client

from arena import stats
from tests.arena.helpers import decided


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


def rows_of(response):
    return list(csv.DictReader(io.StringIO(response.content.decode())))


def test_public_leaderboard_shows_ratings_intervals_and_pass_rates(verdicts):
    page = Client().get("/results/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="ci-plot"' in html and 'id="heat-map"' in html
    assert len(page.context["results"]["ratings_chart"]["rows"]) == 3  # one mark per witness
    assert 'id="ratings"' in html and "Simple Bot" in html and "ELIZA" in html
    assert "humans (baseline)" in html and 'data-format="three-party"' in html and 'data-format="two-party"' in html
    assert f'href="/results/entries/{verdicts.eliza.pk}/"' in html  # each entry links to its own page
    assert "ELIZA won every battle" not in html  # ELIZA won one and lost one
    assert "connie" not in html and "carl" not in html  # confederates are pooled, never named


def test_results_are_computed_once_per_verdict(verdicts, django_capture_on_commit_callbacks):
    with mock.patch("arena.selectors.results.stats.ratings_compute", wraps=stats.ratings_compute) as compute:
        assert Client().get("/results/").status_code == 200
        assert Client().get("/results/").status_code == 200
        assert Client().get("/results/results.json").status_code == 200  # the same figures, not computed again
        assert compute.call_count == 1
        with django_capture_on_commit_callbacks(execute=True):
            decided(verdicts, witnesses=[verdicts.connie, verdicts.eliza], judged_human=verdicts.eliza)
        page = Client().get("/results/")
        assert compute.call_count == 2
    assert "6 battles" in page.content.decode()


def test_a_verdict_not_yet_committed_changes_nothing_cached(verdicts, django_capture_on_commit_callbacks):
    """The version moves on commit: a verdict rolled back, or still in its transaction, leaves the cache."""
    from arena.results.cache import results_version

    before = results_version()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        decided(verdicts, witnesses=[verdicts.connie, verdicts.eliza], judged_human=verdicts.eliza)
    assert results_version() == before
    for callback in callbacks:
        callback()
    assert results_version() > before


def test_filters_by_format_and_period(verdicts):
    html = Client().get("/results/?format=two-party").content.decode()
    assert 'data-format="two-party"' in html and 'data-format="three-party"' not in html
    assert "1 battle from" in html
    document = Client().get("/results/results.json?format=three-party").json()
    assert document["filters"] == {"format": "three-party"} and document["battles"] == 4
    assert [b["format"] for b in document["rates"]] == ["three-party"]
    empty = Client().get("/results/?from=2001-01-01&to=2001-12-31")
    assert empty.status_code == 200 and "No battles match these filters" in empty.content.decode()
    assert Client().get("/results/results.json?to=2001-12-31").json()["ratings"] == []


@pytest.mark.parametrize(
    "query, message",
    [
        ("from=yesterday", "is not a date"),
        ("from=2026-02-30", "is not a date"),
        ("from=1900-01-01", "Choose a date from 2000-01-01"),
        ("from=2026-05-02&to=2026-05-01", "The period ends before it begins"),
        ("format=chess", "chess is not a format"),
        ("format=" + "y" * 5000, "is not a format"),
        ("study=" + "x" * 65, "at most 64 characters"),
        ("study=<script>", "letters, digits"),
        ("from=" + "9" * 5000, "YYYY-MM-DD"),
    ],
)
def test_bad_filters_are_refused_with_a_message(verdicts, query, message):
    page = Client().get(f"/results/?{query}")
    assert page.status_code == 400 and message in page.content.decode()
    assert "<script>" not in page.content.decode()
    document = Client().get(f"/results/results.json?{query}")
    assert document.status_code == 400 and any(message in m for m in document.json()["errors"])
    table = Client().get(f"/results/ratings.csv?{query}")
    assert table.status_code == 400 and message in table.content.decode()


def test_downloads_hold_what_the_page_shows(verdicts):
    document = Client().get("/results/results.json").json()
    assert {r["name"] for r in document["ratings"]} == {"human", "Simple Bot", "ELIZA"} and document["battles"] == 5
    assert all(set(r) == {"name", "rating", "ci_low", "ci_high", "battles"} for r in document["ratings"])
    names = document["win_fraction"]["names"]
    i, j = names.index("Simple Bot"), names.index("human")
    assert document["win_fraction"]["battles"][i][j] == 3 and document["win_fraction"]["fraction"][i][
        j
    ] == pytest.approx(1 / 3)
    three = next(b for b in document["rates"] if b["format"] == "three-party")["rows"]
    simple = next(r for r in three if r["witness"] == "Simple Bot")
    assert (simple["judged_human"], simple["n"]) == (1, 3) and simple["ci_low"] < 1 / 3 < simple["ci_high"]

    ratings = Client().get("/results/ratings.csv")
    assert ratings["Content-Type"].startswith("text/csv") and "attachment" in ratings["Content-Disposition"]
    assert [r["name"] for r in rows_of(ratings)] == [r["name"] for r in document["ratings"]]
    matrix = rows_of(Client().get("/results/matrix.csv"))
    assert {(r["player"], r["opponent"], r["battles"]) for r in matrix} >= {
        ("Simple Bot", "human", "3"),
        ("human", "Simple Bot", "3"),
    }
    rates = rows_of(Client().get("/results/rates.csv"))
    assert {(r["format"], r["witness"], r["n"]) for r in rates} >= {
        ("three-party", "human", "4"),
        ("two-party", "ELIZA", "1"),
    }


@pytest.mark.parametrize("name", ['=HYPERLINK("http://x")', "=1+1+cmd|' /C calc'!A0", "@SUM(1+1)"])
def test_a_name_that_looks_like_a_formula_is_defused_in_csv(cast, name):
    from arena.models import Entry
    from tests.conftest import FAST

    sneaky = Entry.objects.create(display_name=name, engine="simple", settings=dict(FAST))
    decided(cast, witnesses=[cast.connie, sneaky], judged_human=cast.connie)
    assert "'" + name in [r["name"] for r in rows_of(Client().get("/results/ratings.csv"))]
    assert "'" + name in [r["witness"] for r in rows_of(Client().get("/results/rates.csv"))]
    assert name in [r["name"] for r in Client().get("/results/results.json").json()["ratings"]]


def test_entry_page_each_format_beside_the_human_baseline(verdicts):
    page = Client().get(f"/results/entries/{verdicts.eliza.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'data-format="three-party"' in html and 'data-format="two-party"' in html and "humans (baseline)" in html
    document = Client().get(f"/results/entries/{verdicts.eliza.pk}/entry.json").json()
    by_format = {f["format"]: f for f in document["formats"]}
    assert (by_format["three-party"]["entry"]["judged_human"], by_format["three-party"]["entry"]["n"]) == (0, 1)
    assert (by_format["three-party"]["human"]["judged_human"], by_format["three-party"]["human"]["n"]) == (3, 4)
    assert (by_format["two-party"]["entry"]["judged_human"], by_format["two-party"]["entry"]["n"]) == (1, 1)
    assert by_format["two-party"]["human"]["n"] == 0  # no human was judged alone: nothing known, said so
    assert document["rating"]["name"] == "ELIZA" and document["rating"]["battles"] == 2
    table = rows_of(Client().get(f"/results/entries/{verdicts.eliza.pk}/rates.csv"))
    assert [(r["format"], r["witness"]) for r in table] == [
        ("three-party", "ELIZA"),
        ("three-party", "human"),
        ("two-party", "ELIZA"),
        ("two-party", "human"),
    ]
    assert Client().get("/results/entries/999999/").status_code == 404


def test_judges_page_and_downloads_are_for_organisers_only(verdicts):
    for url in ("/results/judges/", "/results/judges/judges.json", "/results/judges/judges.csv"):
        assert Client().get(url).status_code == 302  # to the login page
        assert logged_in(verdicts.jude).get(url).status_code == 403
        assert logged_in(verdicts.oscar).get(url).status_code == 403
    organiser = logged_in(verdicts.olivia)
    page = organiser.get("/results/judges/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "jude" in html and "june" in html and 'id="judges"' in html and "judges.csv" in html
    rows = {r["judge"]: r for r in organiser.get("/results/judges/judges.json").json()["judges"]}
    assert (rows["jude"]["correct"], rows["jude"]["n"]) == (2, 4) and (rows["june"]["correct"], rows["june"]["n"]) == (
        1,
        1,
    )
    assert {r["judge"] for r in rows_of(organiser.get("/results/judges/judges.csv?format=two-party"))} == {"jude"}
    assert organiser.get("/results/judges/?from=nope").status_code == 400


def test_judges_are_never_named_on_public_pages(verdicts):
    for url in (
        "/results/",
        "/results/results.json",
        "/results/ratings.csv",
        "/results/rates.csv",
        f"/results/entries/{verdicts.eliza.pk}/",
        f"/results/entries/{verdicts.eliza.pk}/entry.json",
    ):
        body = Client().get(url).content.decode()
        assert "jude" not in body and "june" not in body and "user:" not in body, url


def test_results_page_without_verdicts(cast):
    html = Client().get("/results/").content.decode()
    assert "No battles yet." in html and "No verdicts yet." in html
    assert Client().get("/results/results.json").json()["ratings"] == []
