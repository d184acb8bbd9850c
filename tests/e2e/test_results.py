"""The results pages in a real Chromium at a desktop and a phone size: the leaderboard's CI plot and heat map
drawn, every rate with its n and CI, the filters, the downloads, an entry's page, nothing wider than the
screen, and the judges' page refused to anyone but an organiser.

One test on one daphne (a server start is the costly part).  In services mode it also shows the results
cache shared across processes: a verdict committed in this process makes the server recompute."""

import csv
import json
import re

import pytest
from playwright.sync_api import expect

from arena.models import Entry
from tests.arena.helpers import decided
from tests.conftest import FAST

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

SIZES = [(1280, 800), (390, 844)]
HOSTILE = '<img src=x onerror="window.pwned=1">Bot'
LONG = "An entry with a remarkably long display name that goes on"


def seed(cast):
    hostile = Entry.objects.create(display_name=HOSTILE, engine="simple", settings=dict(FAST))
    long = Entry.objects.create(display_name=LONG, engine="simple", settings=dict(FAST))
    for k in range(4):
        decided(cast, witnesses=[cast.connie, cast.simple], judged_human=cast.simple if k == 0 else cast.connie)
        decided(cast, witnesses=[cast.carl, cast.eliza], judged_human=cast.carl, judge=cast.june)
    decided(cast, witnesses=[cast.connie, hostile], judged_human=hostile)
    decided(cast, witnesses=[cast.carl, hostile], judged_human=cast.carl)
    decided(cast, witnesses=[cast.simple, long], judged_human=long)
    decided(cast, witnesses=[cast.connie, long], judged_human=cast.connie, judge=cast.june)
    decided(cast, witnesses=[cast.eliza], judged_human=cast.eliza)
    decided(cast, witnesses=[cast.simple], judged_human=None)
    decided(cast, witnesses=[cast.connie], judged_human=cast.connie)


def page_at(browser, size, base_url, user=None):
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, base_url=base_url)
    page = context.new_page()
    page.js_errors = []
    page.on("pageerror", lambda exc: page.js_errors.append(str(exc)))
    if user:
        page.goto(f"{base_url}/accounts/login/")
        page.fill("input[name=username]", user)
        page.fill("input[name=password]", f"{user}-pw")
        page.click("#login-submit")
        page.wait_for_url(f"{base_url}/")
    return page


def assert_fits(page):
    width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"{page.url}: the page is {width[0]} px wide on a {width[1]} px screen"
    for box in page.locator(".chart-figure svg").evaluate_all("els => els.map(e => e.getBoundingClientRect().right)"):
        assert box <= width[1] + 0.5


def ratings_match_their_csv(page, names):
    """The CI plot's CSV download is the leaderboard table's figures, row for row."""
    with page.expect_download() as download:
        page.click("#ci-plot button[data-format=csv]")
    lines = open(download.value.path(), encoding="utf-8", newline="").read().strip().split("\r\n")
    assert lines[0] == "Witness,Rating,CI low,CI high,Battles" and len(lines) == names + 1
    table = page.locator("#ratings tbody tr")
    for k, line in enumerate(csv.reader(lines[1:])):
        cells = [table.nth(k).locator("td").nth(j).inner_text() for j in range(5)]
        name, rating, low, high, battles = line
        assert name == cells[1] and f"{float(rating):.0f}" == cells[2] and battles == cells[4]
        assert cells[3] == (f"{float(low):.0f} – {float(high):.0f}" if low else "–")
    with page.expect_download() as download:
        page.click("#ci-plot button[data-format=svg]")
    assert open(download.value.path(), encoding="utf-8").read().lstrip().startswith("<svg")
    with page.expect_download() as download:
        page.click("#ci-plot button[data-format=png]")
    assert open(download.value.path(), "rb").read(8) == b"\x89PNG\r\n\x1a\n"


def test_results_pages_at_desktop_and_phone_sizes(browser, live_daphne, cast, services_mode):
    seed(cast)
    for size in SIZES:
        page = page_at(browser, size, live_daphne)
        response = page.goto(f"{live_daphne}/results/")
        assert response.status == 200
        # the leaderboard: one CI mark per witness, the heat map's cells, a rating interval in the table
        names = page.locator("#ratings tbody tr").count()
        assert names == 5  # human, Simple Bot, ELIZA, the hostile and the long one
        expect(page.locator("#ci-plot svg .mark-symbol.role-mark path")).to_have_count(names)  # Vega-Lite's SVG
        assert page.locator("#ci-plot svg .mark-rule line").count() >= names  # the intervals (and the mean)
        expect(page.locator("#heat-map svg .mark-rect.role-mark path")).not_to_have_count(0)
        assert page.locator("#heat-map svg .mark-rect.role-mark path").count() >= 8
        expect(page.locator("#rates-three-party svg .mark-symbol.role-mark path")).not_to_have_count(0)
        assert page.locator("#ci-plot svg").bounding_box()["width"] > size[0] * 0.5
        if size == SIZES[0]:
            ratings_match_their_csv(page, names)
        expect(page.locator("#ratings tbody tr").first.locator("td").nth(3)).to_have_text(re.compile(r"\d+ – \d+"))
        # every rate with n and its interval, beside the human baseline
        for table in ("three-party", "two-party"):
            rows = page.locator(f"table[data-format='{table}'] tbody tr")
            assert rows.count() >= 2 and "humans (baseline)" in rows.first.inner_text()
            for k in range(rows.count()):
                assert re.fullmatch(r"\d+", rows.nth(k).locator("td.n").inner_text())
                assert re.fullmatch(r"\d+ – \d+ %", rows.nth(k).locator("td.ci").inner_text())
        # a bot's name is text, never markup
        assert page.evaluate("() => window.pwned") is None
        expect(page.locator("#ratings")).to_contain_text(HOSTILE)
        assert_fits(page)

        # downloads: the links carry the figures shown
        document = json.loads(
            page.request.get(page.locator("#downloads a", has_text="everything").get_attribute("href")).text()
        )
        assert len(document["ratings"]) == names and {b["format"] for b in document["rates"]} == {
            "three-party",
            "two-party",
        }
        ratings_csv = page.request.get(page.locator("#downloads a", has_text="ratings").get_attribute("href"))
        assert ratings_csv.ok and ratings_csv.text().splitlines()[0] == "rank,name,rating,ci_low,ci_high,battles"
        assert len(ratings_csv.text().splitlines()) == names + 1
        matrix_csv = page.request.get(page.locator("#downloads a", has_text="win fractions").get_attribute("href"))
        assert matrix_csv.text().startswith("player,opponent,battles,win_fraction")

        # filters: one format, then a period with nothing in it, then a bad date
        page.select_option("#filters select[name=format]", "two-party")
        page.click("#filters button[type=submit]")
        page.wait_for_url(re.compile(r"format=two-party"))
        assert page.locator("table[data-format='three-party']").count() == 0
        expect(page.locator("table[data-format='two-party']")).to_be_visible()
        href = page.locator("#downloads a", has_text="everything").get_attribute("href")
        assert "format=two-party" in href and page.request.get(href).json()["filters"] == {"format": "two-party"}
        page.fill("#filters input[name=from]", "2001-01-01")
        page.fill("#filters input[name=to]", "2001-01-31")
        page.click("#filters button[type=submit]")
        expect(page.locator("main")).to_contain_text("No battles match these filters")
        response = page.goto(f"{live_daphne}/results/?from=1999-12-31")
        assert response.status == 400
        expect(page.locator("#filter-errors")).to_contain_text("Choose a date from 2000-01-01")
        assert_fits(page)

        # an entry's own page: each format it played beside the humans
        page.goto(f"{live_daphne}/results/")
        page.locator("#ratings a", has_text="ELIZA").click()
        expect(page.locator("h1")).to_have_text("ELIZA")
        expect(page.locator("#entry-rates tr[data-format='three-party']")).to_have_count(2)
        expect(page.locator("#entry-rates tr[data-format='two-party']")).to_have_count(2)
        expect(page.locator("#rating")).to_contain_text("95 % CI")
        assert re.fullmatch(r"\d+ – \d+ %", page.locator("#entry-rates td.ci").first.inner_text())
        expect(page.locator("#entry-plot svg .mark-symbol.role-mark path")).to_have_count(
            4
        )  # 2 formats × (ELIZA, humans)
        entry_json = page.request.get(page.locator("#downloads a", has_text="JSON").get_attribute("href")).json()
        assert entry_json["entry"] == "ELIZA" and len(entry_json["formats"]) == 2
        assert_fits(page)
        assert page.js_errors == []
        page.context.close()

        # the judges' page: refused to a judge, shown to the organiser
        judge = page_at(browser, size, live_daphne, "jude")
        assert judge.goto(f"{live_daphne}/results/judges/").status == 403
        assert judge.request.get(f"{live_daphne}/results/judges/judges.csv").status == 403
        judge.context.close()
        organiser = page_at(browser, size, live_daphne, "olivia")
        assert organiser.goto(f"{live_daphne}/results/judges/").status == 200
        expect(organiser.locator("#judges tbody tr")).to_have_count(2)
        expect(organiser.locator("#judges")).to_contain_text("jude")
        expect(organiser.locator("#judges-plot svg .mark-symbol.role-mark path")).to_have_count(2)
        judges_csv = organiser.request.get(organiser.locator("#downloads a", has_text="CSV").get_attribute("href"))
        assert judges_csv.ok and judges_csv.text().startswith("judge,correct,n,rate")
        assert_fits(organiser)
        organiser.context.close()

    # without the chart libraries (as if static/vendor/ were not served): every chart is its table
    page = page_at(browser, SIZES[0], live_daphne)
    page.route("**/static/vendor/**", lambda route: route.abort())
    page.goto(f"{live_daphne}/results/")
    for chart in ("#ci-plot", "#heat-map", "#rates-three-party"):
        expect(page.locator(f"{chart}[data-fallback] details.chart-data[open] table")).to_be_visible()
        expect(page.locator(f"{chart} svg")).to_have_count(0)
    expect(page.locator("#ci-plot table.chart-table tbody tr")).to_have_count(5)
    assert page.evaluate("() => Charts.get('ci-plot').csv()").splitlines()[0] == "Witness,Rating,CI low,CI high,Battles"
    assert page.js_errors == []
    page.context.close()

    if services_mode:
        # the cache is Redis, shared by this process and the server's: a verdict committed here bumps the
        # version, and the server's next request recomputes (the server never recomputes otherwise)
        page = page_at(browser, SIZES[0], live_daphne)
        page.goto(f"{live_daphne}/results/")
        before = int(re.search(r"(\d+) battles", page.locator("main").inner_text()).group(1))
        decided(cast, witnesses=[cast.connie, cast.eliza], judged_human=cast.eliza)
        page.reload()
        expect(page.locator("main")).to_contain_text(f"{before + 1} battles from")
        page.context.close()
