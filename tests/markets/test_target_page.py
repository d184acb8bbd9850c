"""Someone other than the target opening a game's target page gets the friendly 404 (DEBUG off), not
Django's debug page, and the human target reaches their console."""

from .conftest import running_game


def test_a_non_target_opening_the_target_page_gets_the_friendly_404(client, cast, bettors):
    game = running_game(cast, bettors)
    client.force_login(cast.jude)  # a bettor of the game, not its target
    page = client.get(f"/markets/{game.public_id}/target/")
    body = page.content.decode()
    assert page.status_code == 404 and "You are not this game&#x27;s target." in body
    assert '<a href="/">Go to the home page</a>' in body and "Traceback" not in body
    client.force_login(cast.connie)
    assert client.get(f"/markets/{game.public_id}/target/").status_code == 200
