"""Consoles over Channels, pages and the JSON API: the answer delay holds on every read path."""

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from markets import services
from markets.models import Question

from ..arena.wsclient import connect
from .conftest import running_game

pytestmark = pytest.mark.django_db(transaction=True)
DELAY = 3.0  # long enough for the steps before it to finish on a loaded machine


@sync_to_async
def setup_game(cast, bettors, **kwargs):
    return running_game(cast, bettors, **kwargs)


async def bettor(game, user):
    socket, ok, code = await connect(f"/ws/markets/{game.public_id}/bettor/", user)
    assert ok, code
    return socket, await socket.expect("state")


@pytest.mark.slow
async def test_answer_text_reaches_others_only_after_the_delay_even_on_reconnect(cast, bettors, task_worker):
    game = await setup_game(cast, bettors[:2], answer_delay_s=DELAY)
    jude, _ = await bettor(game, cast.jude)
    june, _ = await bettor(game, cast.june)
    target, ok, _ = await connect(f"/ws/markets/{game.public_id}/target/", cast.connie)
    assert ok
    await target.expect("state")

    await jude.send({"type": "ask", "text": "What is <b>your</b> name?"})
    question = (await target.expect("question"))["question"]
    assert question["asker"] == 1 and question["text"] == "What is <b>your</b> name?"
    await june.expect("question")
    await target.send({"type": "answer", "question": question["id"], "text": "Connie & co"})

    assert (await jude.expect("answer", timeout=3))["answer"]["text"] == "Connie & co"
    signal = await june.expect("answer", timeout=3)
    assert signal["answer"]["text"] is None
    # a reconnect before the delay must not reveal the text: not over the websocket ...
    await june.close()
    june, state = await bettor(game, cast.june)
    assert state["answered"][0]["answer"]["text"] is None
    # ... nor on the page, nor through the API
    page, api = await sync_to_async(_page_and_api)(game, cast.june)
    assert "Connie &amp; co" not in page and "Connie & co" not in page and api["answered"][0]["answer"]["text"] is None
    spectator, ok, _ = await connect(f"/ws/markets/{game.public_id}/watch/")
    assert ok and (await spectator.expect("state"))["answered"][0]["answer"]["text"] is None

    public = await june.expect("answer", timeout=DELAY + 3)
    assert public["answer"]["text"] == "Connie & co"
    page, api = await sync_to_async(_page_and_api)(game, cast.june)
    assert "Connie &amp; co" in page and api["answered"][0]["answer"]["text"] == "Connie & co"
    assert all(p.get("answer", {}).get("text") in (None, "Connie & co") for p in june.received if p["type"] == "answer")
    for socket in (jude, june, target, spectator):
        await socket.close()


def _page_and_api(game, user):
    client = Client()
    client.force_login(user)
    page = client.get(f"/markets/{game.public_id}/").content.decode()
    api = client.get(f"/markets/{game.public_id}/state.json").json()
    return page, api


async def test_queued_questions_and_trades_over_the_socket(cast, bettors):
    game = await setup_game(cast, bettors[:2])
    jude, _ = await bettor(game, cast.jude)
    june, _ = await bettor(game, cast.june)
    await jude.send({"type": "ask", "text": "first"})
    await june.expect("question")
    await june.send({"type": "ask", "text": "june's queued secret"})
    assert (await june.expect("queued"))["question"]["text"] == "june's queued secret"
    await jude.send({"type": "trade", "action": "buy", "security": "H", "key": "c1"})
    price = await june.expect("price")
    assert price["point"]["price"] == 51 and price["quotes"]["H"] == {"ask": 52, "bid": 51}
    me = await jude.expect("me")  # the trader's own position and points, not a whole new state
    assert me["me"] == {**me["me"], "points": 1000 - 51, "security": "H", "quantity": 1}
    assert await june.silent()  # the other bettor gets the price only
    await jude.send({"type": "state"})
    state = await jude.expect("state")
    assert state["me"]["points"] == 1000 - 51 and state["market"]["history"][-1]["price"] == 51
    await jude.send({"type": "trade", "action": "buy", "security": "C", "key": "c2"})
    error = await jude.expect("error")
    assert error["code"] == "other_type"
    await jude.send({"type": "trade", "action": "buy", "security": "H"})
    assert (await jude.expect("error"))["code"] == "invalid"
    assert not any("june's queued secret" in str(p) for p in jude.received)
    await jude.close()
    await june.close()


async def test_outsiders_cannot_open_a_bettor_or_target_console(cast, bettors):
    game = await setup_game(cast, bettors[:1])
    for path, user in (("bettor", cast.oscar), ("target", cast.jude), ("bettor", None)):
        _, ok, code = await connect(f"/ws/markets/{game.public_id}/{path}/", user)
        assert not ok and code == 4403


async def test_a_machine_target_answers_through_its_engine(cast, bettors, task_worker):
    game = await setup_game(cast, bettors[:2], target="machine", answer_delay_s=0.5)
    jude, _ = await bettor(game, cast.jude)
    await jude.send({"type": "ask", "text": "Are you a person?"})
    await jude.send({"type": "ask", "text": "Second?"})
    first = await jude.expect("answer", timeout=15)
    assert first["answer"]["text"] == "Hmmm...That's an interesting question."
    while True:  # the asker also hears the group's text-less signal and, later, the public release
        second = (await jude.expect("answer", timeout=15))["answer"]
        if second["number"] == 2 and second["text"]:
            break
    numbers = await sync_to_async(lambda: list(Question.objects.filter(game=game).values_list("status", flat=True)))()
    assert numbers == ["answered", "answered"]
    await jude.close()


def test_pages_escape_text_and_the_log_is_public_only_after_the_end(cast, bettors):
    game = running_game(cast, bettors[:1], answer_delay_s=0)
    q = services.question_ask(game_id=game.pk, user=cast.jude, text="<script>alert(1)</script>")
    services.answer_submit(game_id=game.pk, question_id=q.pk, text="<img src=x onerror=alert(2)>", user=cast.connie)
    client = Client()
    assert client.get(f"/markets/{game.public_id}/log/").status_code == 404
    services.trade_place(game_id=game.pk, user=cast.jude, action="buy", security="H", key="k")
    services.game_settle(game_id=game.pk, force=True)
    log = client.get(f"/markets/{game.public_id}/log/").content.decode()
    assert "<script>alert(1)" not in log and "&lt;script&gt;alert(1)" in log and "<img src=x" not in log
    data = client.get(f"/markets/{game.public_id}/log/?format=json").json()
    assert data["reveal"]["kind"] == "human" and data["trades"][0]["price_after"] == 51
    assert client.get("/markets/leaderboard/").status_code == 200
    watch = client.get(f"/markets/{game.public_id}/watch/").content.decode()
    assert "&lt;img src=x" in watch
    assert client.get("/markets/").status_code == 200


async def test_bettors_see_the_game_start_when_it_fills(cast, bettors):
    game = await sync_to_async(services.game_create)(title="filling", humans=[cast.connie], max_bettors=2)
    await sync_to_async(services.game_open)(game_id=game.pk)
    await sync_to_async(services.game_join)(game_id=game.pk, user=cast.jude)
    jude, state = await bettor(game, cast.jude)
    assert state["status"] == "open"
    await sync_to_async(services.game_join)(game_id=game.pk, user=cast.june)
    assert (await jude.expect("state"))["status"] == "running"
    await jude.close()


async def test_bad_and_late_frames_get_clear_errors_and_change_nothing(cast, bettors):
    game = await setup_game(cast, bettors[:1])
    jude, _ = await bettor(game, cast.jude)
    target, _, _ = await connect(f"/ws/markets/{game.public_id}/target/", cast.connie)
    await target.expect("state")
    for frame, code in (
        ("{nope", "bad_json"),
        ({"type": "dance"}, "unknown_type"),
        ({"type": "ask", "text": ""}, "invalid"),
        ({"type": "trade", "action": "sell", "security": "H", "key": "k1"}, "not_held"),
    ):
        await jude.send(frame)
        assert (await jude.expect("error"))["code"] == code
    await target.send({"type": "answer", "question": 999999, "text": "nothing to answer"})
    assert (await target.expect("error"))["code"] == "closed"
    await target.send({"type": "answer", "question": "1; drop", "text": "x"})
    assert (await target.expect("error"))["code"] == "invalid"
    await sync_to_async(services.game_settle)(game_id=game.pk, force=True)
    await jude.send({"type": "trade", "action": "buy", "security": "H", "key": "late"})
    assert (await jude.expect("error"))["code"] == "closed"
    counts = await sync_to_async(lambda: (game.trades.count(), game.questions.count()))()
    assert counts == (0, 0)
    await jude.close()
    await target.close()
