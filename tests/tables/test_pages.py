"""The pages, the export, the admin and the organisers' form, and the live websocket."""

import json

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from tables.demo import demo_seed
from tables.models import Game
from tables.services import game_create, game_start, turn_play
from tests.arena.wsclient import connect
from tests.chat_stub import ChatStub, vote

XSS = "<script>alert(1)</script><img src=x onerror=alert(2)>"


@pytest.fixture
def demo(db):
    return demo_seed()[0]


def client_for(user=None):
    client = Client()
    if user:
        client.force_login(user)
    return client


def test_demo_is_idempotent_and_finished(demo):
    assert demo_seed() == (demo, False) and Game.objects.count() == 1
    assert demo.finished and demo.loser.name == "Gamma"


def test_game_page_shows_turns_verdicts_penalties_charts_and_metrics(demo):
    page = client_for().get(f"/tables/{demo.pk}/").content.decode()
    assert "Gamma</strong> was declared human" in page
    assert "Beta is penalised (no_plagiarism)" in page
    assert "functional:" in page and "LLM judge" in page and "garbage" in page
    assert 'id="votes-chart" data-chart="plot"' in page and 'id="penalty-chart" data-chart="plot"' in page
    assert '<td data-value="Gamma">Gamma</td><td data-value="3">3</td>' in page  # the votes against, as a table too
    for metric in ("coherence", "consistency", "relevancy", "obedience"):
        assert metric in page
    assert "correction prompt" in page


def test_leaderboard_across_games_and_models(demo):
    page = client_for().get("/tables/").content.decode()
    assert "demo-gamma @ demo.tables.invalid" in page and "Demo: Alpha, Beta and Gamma" in page


def test_export_is_json_lines_of_every_prompt_and_raw_reply(demo):
    response = client_for().get(f"/tables/{demo.pk}/export.jsonl")
    lines = [json.loads(line) for line in b"".join(response.streaming_content).decode().splitlines()]
    assert lines[0]["type"] == "game" and lines[0]["seed"] == 2024
    calls = [line for line in lines if line["type"] == "call"]
    assert all(c["prompt"] and "raw" in c for c in calls)
    assert any(c["role"] == "judge" for c in calls) and any(c["role"] == "correction" for c in calls)
    assert sum(line["type"] == "turn" for line in lines) == demo.turns_played
    assert "api_key" not in json.dumps(lines[0]["config"])


@pytest.mark.django_db
def test_names_and_model_text_are_escaped_on_the_page(loopback):  # bug 12: the original's UI injected model HTML
    names = (XSS[:40], "Beta", "Gamma")
    with ChatStub({names[0]: [XSS + " 5 < 6 & done"], "Beta": ["a <b>bold</b> claim & more"]}) as stub:
        game = game_create(config=stub.config(names=names, max_turns=3))
        game_start(game_id=game.pk, run=False)
        for n in range(3):
            turn_play(game_id=game.pk, number=n, chain=False)
    for path in (f"/tables/{game.pk}/", f"/tables/{game.pk}/live/", "/tables/"):
        page = client_for().get(path).content.decode()
        assert "<script>alert" not in page and "<img" not in page
    page = client_for().get(f"/tables/{game.pk}/").content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page  # the name, as text
    assert "5 &lt; 6 &amp; done" in page


def test_only_organisers_start_games_from_the_page(cast, loopback):
    assert client_for(cast.oscar).get("/tables/new/").status_code == 403
    assert client_for().get("/tables/new/").status_code == 302
    organiser = client_for(cast.olivia)
    assert organiser.get("/tables/new/").status_code == 200
    bad = organiser.post("/tables/new/", {"config": json.dumps({"agents": [{"name": "A"}]})})
    assert bad.status_code == 400 and "agents: a list of 2 to 12" in bad.content.decode()
    bad = organiser.post("/tables/new/", {"config": "{nope"})
    assert "not JSON" in bad.content.decode()


def test_organisers_start_a_game_from_the_page_and_the_admin(cast, loopback, settings):
    with ChatStub() as stub:
        config = stub.config(max_turns=3, judge="Judge")
        settings.CELERY_TASK_ALWAYS_EAGER = False  # enqueue only: the turns are not played here
        from unittest import mock

        with mock.patch("tables.services.games.enqueue_on_commit") as enqueued:
            response = client_for(cast.olivia).post("/tables/new/", {"config": json.dumps(config)})
            game = Game.objects.get()
            assert response.status_code == 302 and response["Location"] == f"/tables/{game.pk}/"
            assert game.status == "running" and game.judge is not None and game.created_by == cast.olivia
            response = client_for(cast.olivia).post(
                "/admin/tables/game/add/", {"configuration": json.dumps(config), "_save": "Save"}
            )
            assert response.status_code == 302, response.content.decode()[:2000]
            assert Game.objects.count() == 2 and enqueued.call_count == 2
            bad = client_for(cast.olivia).post("/admin/tables/game/add/", {"configuration": '{"agents": 3}'})
            assert bad.status_code == 200 and "agents: a list" in bad.content.decode()


def test_the_new_game_form_starts_a_game_that_works_as_it_is(cast, db):
    import html
    import re
    from unittest import mock

    from tables.models import Turn
    from tables.selectors import leaderboard
    from tables.services import game_play

    organiser = client_for(cast.olivia)
    page = organiser.get("/tables/new/").content.decode()
    assert "built-in stub players" in page and "ARENA_OUTBOUND_ALLOW=127.0.0.1/32" in page
    assert "localhost:11434" not in re.search(r"<textarea[^>]*>(.*?)</textarea>", page, re.S).group(1)
    prefilled = html.unescape(re.search(r"<textarea[^>]*>(.*?)</textarea>", page, re.S).group(1))
    with mock.patch("tables.services.games.enqueue_on_commit"):
        response = organiser.post("/tables/new/", {"config": prefilled})
    assert response.status_code == 302
    game = game_play(game_id=Game.objects.get().pk)
    assert game.outcome == Game.Outcome.LOSER and not game.turns.filter(status=Turn.Status.FAILED).exists()
    assert [row["model"] for row in leaderboard()] == ["built-in stub player"]
    assert f"{game.loser.name}</strong> was declared human" in client_for().get(f"/tables/{game.pk}/").content.decode()


def test_a_game_whose_agents_cannot_be_reached_is_refused_on_the_page_before_it_starts(cast, db, settings):
    settings.ARENA_OUTBOUND_ALLOW = []
    config = {
        "agents": [{"name": n, "base_url": "http://localhost:11434/v1", "model": "gemma2:2b"} for n in ("A", "B")]
    }
    response = client_for(cast.olivia).post("/tables/new/", {"config": json.dumps(config)})
    page = response.content.decode()
    assert response.status_code == 400 and "The game was not started" in page
    assert "agent A (http://localhost:11434/v1, model gemma2:2b)" in page and "loopback" in page
    assert "ARENA_OUTBOUND_ALLOW=127.0.0.1/32,::1/128" in page  # how to allow a local model server
    assert not Game.objects.exists()
    response = client_for(cast.olivia).post("/admin/tables/game/add/", {"configuration": json.dumps(config)})
    assert response.status_code == 200 and "ARENA_OUTBOUND_ALLOW=" in response.content.decode()
    assert not Game.objects.exists()


@pytest.mark.django_db(transaction=True)
async def test_the_page_socket_sends_state_then_a_push_per_turn(settings):
    settings.ARENA_OUTBOUND_ALLOW = ["127.0.0.1/32"]
    with ChatStub({"Beta": ["I am a machine.", vote("Gamma", "Gamma sleeps.")]}) as stub:
        game = await sync_to_async(game_create)(config=stub.config(max_turns=3))
        await sync_to_async(game_start)(game_id=game.pk, run=False)
        socket, connected, _ = await connect(f"/ws/tables/{game.pk}/")
        assert connected
        assert (await socket.expect("state")) == {"type": "state", "status": "running", "turns_played": 0}
        await sync_to_async(turn_play)(game_id=game.pk, number=0, chain=False)
        await socket.expect("state", turns_played=1)  # the push: "re-read", the consumer sends the new state
        await socket.close()
    socket, connected, code = await connect("/ws/tables/999999/")
    assert not connected and code == 4403
