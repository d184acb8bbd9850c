"""The price chart in a real Chromium: drawn on a canvas with a time axis, one point more on each trade push,
exports its data as CSV; the spectator sees the same chart; the public log's chart has every trade."""

import re

import pytest
from playwright.sync_api import expect

from markets import services

from ..e2e.conftest import login
from .conftest import running_game, trade

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
TIME = re.compile(r"^(\d{4}-\d\d-\d\d )?\d\d:\d\d(:\d\d)?$")

INKED = """() => {  // pixels that are not blank inside the plot area of the chart's canvas
  const c = document.querySelector('#price-chart canvas');
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let n = 0; for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
  return n;
}"""


def chart_state(page):
    return page.evaluate("""() => { const c = Charts.get('price-chart');
        return {points: c.uplot.data[0].length, prices: Array.from(c.uplot.data[1]), labels: c.xLabels(),
                width: c.uplot.width, csv: c.csv()}; }""")


def test_the_price_chart_draws_with_a_time_axis_and_grows_on_each_trade(browser, live_daphne, cast, bettors):
    game = running_game(cast, [cast.jude, cast.june], target="machine", duration_s=600)
    trade(game, cast.june, "buy", "H")  # before the page opens: in its history
    jude = login(browser, live_daphne, "jude", "jude-pw")
    jude.goto(f"{live_daphne}/markets/{game.public_id}/")
    expect(jude.locator("#status")).to_have_text("running")
    expect(jude.locator("#price-chart canvas")).to_have_count(1)
    assert jude.evaluate(INKED) > 500
    before = chart_state(jude)
    assert before["points"] == 2 and before["prices"] == [50, 51]
    assert before["labels"] and all(TIME.match(label) for label in before["labels"]), before["labels"]
    assert jude.locator("#price-chart canvas").bounding_box()["width"] > 250

    jude.click("button.trade[data-action=buy][data-security=H]")  # its push appends a point
    expect(jude.locator("#price")).to_have_text("52")
    after = chart_state(jude)
    assert after["points"] == 3 and after["prices"][-1] == 52
    lines = after["csv"].strip().split("\r\n")
    assert lines[0] == "Time,Human price,Trade no." and [line.split(",")[1] for line in lines[1:]] == ["50", "51", "52"]
    expect(jude.locator("#price-chart table.chart-table tbody tr")).to_have_count(3)

    jude.set_viewport_size({"width": 390, "height": 844})  # resizes with its container
    jude.wait_for_function("() => Charts.get('price-chart').uplot.width < 390")
    assert jude.evaluate("() => document.documentElement.scrollWidth") <= 390

    watch = jude.context.new_page()
    watch.goto(f"{live_daphne}/markets/{game.public_id}/watch/")
    expect(watch.locator("#price-chart canvas")).to_have_count(1)
    assert chart_state(watch)["prices"] == [50, 51, 52]

    services.game_settle(game_id=game.pk, force=True)
    log = jude.context.new_page()
    log.goto(f"{live_daphne}/markets/{game.public_id}/log/")
    expect(log.locator("#price-chart canvas")).to_have_count(1)
    state = chart_state(log)
    assert state["prices"] == [50, 51, 52] and all(TIME.match(label) for label in state["labels"])
    assert "bettor 1 buys human" in state["csv"]
    with log.expect_download() as download:
        log.click("#price-chart button[data-format=png]")
    assert download.value.suggested_filename == "price-chart.png"
    assert open(download.value.path(), "rb").read(8) == b"\x89PNG\r\n\x1a\n"
    assert jude.js_errors == []

    bare = browser.new_context().new_page()  # no chart library (as if static/vendor/ were not served)
    bare.route("**/static/vendor/**", lambda route: route.abort())
    bare.goto(f"{live_daphne}/markets/{game.public_id}/log/")
    expect(bare.locator("#price-chart[data-fallback] details.chart-data[open] tbody tr")).to_have_count(3)
    expect(bare.locator("#price-chart canvas")).to_have_count(0)
    expect(bare.locator("#price-chart button[data-format=csv]")).to_be_visible()


def test_a_game_without_trades_has_a_time_axis_of_minutes_not_years(browser, live_daphne, cast, bettors):
    """One point (the opening price): uPlot would widen its range to about three years, labels dated."""
    game = running_game(cast, [cast.jude, cast.june], target="machine", duration_s=600)
    jude = login(browser, live_daphne, "jude", "jude-pw")
    jude.goto(f"{live_daphne}/markets/{game.public_id}/")
    expect(jude.locator("#price-chart canvas")).to_have_count(1)
    state = chart_state(jude)
    assert state["points"] == 1 and state["labels"], state
    assert all(re.match(r"^\d\d:\d\d(:\d\d)?$", label) for label in state["labels"]), state["labels"]
    span = jude.evaluate("() => { const s = Charts.get('price-chart').uplot.scales.x; return s.max - s.min; }")
    assert 60 <= span < 3600
