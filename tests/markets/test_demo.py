from io import StringIO

from django.core.management import call_command

from markets.models import Game


def test_the_demo_game_is_open_for_the_demo_bettors_and_seeding_is_idempotent(db):
    out = StringIO()
    call_command("seed_demo", stdout=out)
    call_command("seed_demo_markets", stdout=out)
    call_command("seed_demo_markets", stdout=out)
    assert "bettor1-demo" in out.getvalue()
    [game] = Game.objects.filter(conversation_market__isnull=True)
    assert game.status == Game.Status.OPEN and game.max_bettors == 2
    # the target was drawn from the demo pools
    assert (game.target_human and game.target_human.username == "confederate1") or (
        game.target_entry and game.target_entry.display_name in {"ELIZA", "Simple Bot"}
    )


def test_the_demo_shows_a_settled_and_a_live_conversation_market_with_trades(db):
    from markets.models import ConversationMarket
    from markets.selectors import ledger_audit

    call_command("seed_demo", stdout=StringIO())
    call_command("seed_demo_markets", stdout=StringIO())
    call_command("seed_demo_markets", stdout=StringIO())
    markets = {cm.game.status: cm for cm in ConversationMarket.objects.select_related("game")}
    assert sorted(markets) == ["running", "settled"]
    for cm in markets.values():
        assert cm.game.trades.exists() and ledger_audit(game=cm.game) == []


def test_the_demo_crowd_markets_machine_and_human_answer_in_their_own_words(db):
    from arena.models import Message
    from markets.models import ConversationMarket

    call_command("seed_demo", stdout=StringIO())
    call_command("seed_demo_markets", stdout=StringIO())
    for cm in ConversationMarket.objects.select_related("interrogation"):
        answers = {
            "human" if c.witness_human_id else "machine": [
                m.text for m in Message.objects.filter(conversation=c, sender_role="witness").order_by("seq")
            ]
            for c in cm.interrogation.conversations.all()
        }
        assert answers["human"] and answers["machine"]
        assert not set(answers["human"]) & set(answers["machine"]), answers
