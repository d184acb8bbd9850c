from io import StringIO

from django.core.management import call_command

from markets.models import Game


def test_the_demo_game_is_open_for_the_demo_bettors_and_seeding_is_idempotent(db):
    out = StringIO()
    call_command("seed_demo", stdout=out)
    call_command("seed_demo_markets", stdout=out)
    call_command("seed_demo_markets", stdout=out)
    assert "bettor1-demo" in out.getvalue()
    [game] = Game.objects.all()
    assert game.status == Game.Status.OPEN and game.max_bettors == 2
    # the target was drawn from the demo pools
    assert (game.target_human and game.target_human.username == "confederate1") or (
        game.target_entry and game.target_entry.display_name in {"ELIZA", "Simple Bot"}
    )
