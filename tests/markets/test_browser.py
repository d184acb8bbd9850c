"""Turing Trade in two real browsers: two bettors, a bot target, the answer delay, trades, the reveal."""

import pytest
from playwright.sync_api import expect

from markets import services
from markets.models import Game

from ..e2e.conftest import login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
BOT = "Hmmm...That's an interesting question."


def test_two_bettors_and_a_bot_target(browser, live_daphne, cast, task_worker):
    game = services.game_create(
        title="Browser game", entries=[cast.simple], max_bettors=2, answer_delay_s=3, duration_s=300
    )
    services.game_open(game_id=game.pk)
    jude = login(browser, live_daphne, "jude", "jude-pw")
    june = login(browser, live_daphne, "june", "june-pw")
    for page in (jude, june):  # the second join fills the game and starts it
        page.goto(f"{live_daphne}/markets/")
        page.click("button.join")
        page.wait_for_url(f"{live_daphne}/markets/{game.public_id}/")
    june.reload()
    for page in (jude, june):
        expect(page.locator("#status")).to_have_text("running")
        expect(page.locator("[data-q=H-ask]")).to_have_text("51")

    jude.fill("#ask-text", "<b>Are</b> you human?")
    jude.press("#ask-text", "Enter")
    expect(june.locator("#qa .msg.current .text")).to_have_text("<b>Are</b> you human?")
    expect(jude.locator("#qa .msg.witness .text")).to_have_text(BOT, timeout=15000)
    # june has the signal, not the text, until the delay has passed
    expect(june.locator("#qa .msg.witness.pending")).to_have_count(1, timeout=5000)
    assert BOT not in june.content()
    expect(june.locator("#qa .msg.witness .text")).to_have_text(BOT, timeout=8000)
    assert june.locator("#qa b").count() == 0

    jude.click("button.trade[data-action=buy][data-security=H]")
    expect(june.locator("#price")).to_have_text("51")
    expect(jude.locator("#points")).to_have_text("949")
    june.click("button.trade[data-action=buy][data-security=C]")
    expect(jude.locator("#price")).to_have_text("50")
    jude.click("button.trade[data-action=buy][data-security=C]")
    expect(jude.locator("#notice")).to_contain_text("sell it first")
    expect(jude.locator("#price-chart table.chart-table tbody tr")).to_have_count(3)  # the opening price, 2 trades

    services.game_settle(game_id=game.pk, force=True)  # the organiser ends it (from this process)
    for page in (jude, june):
        page.reload()  # embedded default: this process's push cannot reach daphne's in-memory layer
        expect(page.locator("#reveal")).to_contain_text("Simple Bot")
    expect(june.locator("#points")).to_have_text(str(1000 - 50 + 100))
    expect(june.locator("#settlement-total")).to_contain_text("Payout at the reveal: 100 points. Profit: +50 points")
    expect(june.locator("#settlement-rows tr[data-security=C] td").last).to_have_text("+50")
    log = jude.context.new_page()
    log.goto(f"{live_daphne}/markets/{game.public_id}/log/")
    expect(log.locator("h1")).to_contain_text("Browser game")
    assert Game.objects.get(pk=game.pk).trades.count() == 2
    assert jude.js_errors == [] and june.js_errors == []
