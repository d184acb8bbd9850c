"""After the reveal a bettor sees their payout and profit, per security and in total; "End now, reveal and
settle" asks first (a GET ends nothing, the confirming POST does); the human target finds their page from
the game list and the home page, and nobody else is told who the target is."""

import pytest
from django.test import Client

from markets import selectors, services
from markets.models import Game

from .conftest import running_game, trade

pytestmark = pytest.mark.django_db


def client_for(user):
    client = Client()
    client.force_login(user)
    return client


def test_a_settled_bettor_gets_payout_and_profit_per_security_and_in_total(cast, bettors):
    game = running_game(cast, [cast.jude, cast.june])  # the target is connie: a human
    trade(game, cast.jude, "buy", "C")
    trade(game, cast.jude, "sell", "C")
    trade(game, cast.jude, "buy", "H")
    trade(game, cast.jude, "buy", "H")
    trade(game, cast.june, "buy", "C")
    jude = selectors.participant_for(game=game, user=cast.jude)
    assert selectors.settlement(game=game, participant=jude) is None  # nothing to show before the reveal

    game = services.game_settle(game_id=game.pk, force=True)
    jude = selectors.participant_for(game=game, user=cast.jude)
    result = selectors.settlement(game=game, participant=jude)
    human, computer = result["securities"]
    assert (human["name"], human["bought"], human["sold"], human["held"], human["payout"]) == ("human", 2, 0, 2, 200)
    assert human["profit"] == 200 - human["spent"] and human["spent"] > 100
    assert (computer["bought"], computer["sold"], computer["held"], computer["payout"]) == (1, 1, 0, 0)
    assert computer["profit"] == computer["received"] - computer["spent"] == 0  # bought at 51, sold back at 51
    assert result["payout"] == 200 and result["points"] == jude.account.balance
    assert result["profit"] == jude.account.balance - 1000 == human["profit"] + computer["profit"]

    june = selectors.participant_for(game=game, user=cast.june)
    june_result = selectors.settlement(game=game, participant=june)
    assert june_result["payout"] == 0 and june_result["profit"] == -june_result["securities"][1]["spent"]

    page = client_for(cast.jude).get(f"/markets/{game.public_id}/").content.decode()
    assert 'id="settlement"' in page and "Payout at the reveal: <strong>200</strong>" in page
    assert f"Profit: <strong>{'+' if result['profit'] > 0 else ''}{result['profit']}</strong>" in page
    assert f'<tr data-security="H"><th scope="row">human</th><td>2</td><td>0</td><td>{human["spent"]}</td>' in page


def test_ending_a_game_now_asks_first(cast, bettors):
    game = running_game(cast, bettors[:1])
    admin = client_for(cast.olivia)
    asked = admin.post("/admin/markets/game/", {"action": "end_games", "_selected_action": [game.pk]})
    assert asked.status_code == 302 and asked["Location"] == f"/admin/markets/game/end/?ids={game.pk}"
    page = admin.get(asked["Location"])
    assert (
        page.status_code == 200
        and 'id="end-confirm"' in page.content.decode()
        and "cannot be undone" in page.content.decode()
    )
    admin.get(f"/admin/markets/game/end/?ids={game.pk}&confirm=yes")  # however it is phrased, a GET ends nothing
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING

    done = admin.post("/admin/markets/game/end/", {"ids": str(game.pk)})
    game.refresh_from_db()
    assert done.status_code == 302 and game.status == Game.Status.SETTLED and game.end_reason == "organiser"
    again = admin.get(f"/admin/markets/game/end/?ids={game.pk}").content.decode()
    assert 'id="end-none"' in again and 'id="end-confirm"' not in again
    assert (
        client_for(cast.jude).post("/admin/markets/game/end/", {"ids": str(game.pk)}).status_code == 302
    )  # to the admin login


def test_the_human_target_finds_their_page_and_only_they_are_told(cast, bettors):
    game = running_game(cast, bettors[:1])  # connie is the target
    target_url = f"/markets/{game.public_id}/target/"
    for url in ("/markets/", "/"):
        page = client_for(cast.connie).get(url).content.decode()
        assert 'id="as-target"' in page and target_url in page, url
        for other in (cast.jude, cast.oscar):
            assert target_url not in client_for(other).get(url).content.decode()
        assert target_url not in Client().get(url).content.decode()
    services.game_settle(game_id=game.pk, force=True)
    assert target_url not in client_for(cast.connie).get("/").content.decode()  # a finished game is no task
