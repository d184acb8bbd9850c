"""``python manage.py tables play CONFIG.json [--json]``."""

import json

import pytest
from django.core.management import CommandError, call_command

from tables.models import Game
from tests.chat_stub import ChatStub, vote

pytestmark = pytest.mark.django_db


def run(tmp_path, config, *args):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(config) if not isinstance(config, str) else config)
    from io import StringIO

    out = StringIO()
    call_command("tables", "play", str(path), *args, stdout=out)
    return out.getvalue()


def test_plays_to_the_end_and_prints_json(tmp_path, loopback):
    scripts = {
        "Beta": ["Beep.", vote("Alpha", "Alpha is slow."), vote("Alpha", "Alpha paused.")],
        "Gamma": ["Bits.", vote("Alpha", "Alpha yawned.")],
        "Alpha": ["Bytes.", vote("Beta", "Beta beeps.")],
    }
    with ChatStub(scripts) as stub:
        out = json.loads(run(tmp_path, {**stub.config(), "end_votes": 3, "max_turns": 60}, "--json"))
    assert out["loser"] == "Alpha" and "draw" not in out
    assert stub.model_lists == 3 and stub.probes == 0  # each backend checked by GET /v1/models: no completion
    assert out["votes_against"]["Alpha"] == 3 and set(out["votes_against"]) == set(out["penalties"]) == {
        "Alpha",
        "Beta",
        "Gamma",
    }
    assert sum(out["penalties"].values()) == sum(1 for t in out["turns"] if t["penalty"])
    assert set(out["metrics"]) == {"game", "Alpha", "Beta", "Gamma"}
    assert set(out["metrics"]["game"]) == {"coherence", "consistency", "relevancy", "obedience"}
    assert [t["number"] for t in out["turns"]] == list(range(len(out["turns"]))) and out["turns"][0]["text"] == "Beep."


def test_a_draw_and_the_plain_output(tmp_path, loopback):
    with ChatStub() as stub:
        out = run(tmp_path, {**stub.config(), "max_turns": 4})
    assert "draw (turn cap)" in out and "turn   3 Beta" in out


def test_an_unreachable_backend_is_refused_by_name(tmp_path, loopback):
    with ChatStub() as stub:
        config = stub.config()
    config["agents"][1]["base_url"] = "http://127.0.0.1:9/v1"
    with pytest.raises(CommandError, match=r"agent Beta \(http://127.0.0.1:9/v1, model Beta\): .*unreachable"):
        run(tmp_path, config)
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    "config, message",
    [
        ("{not json", "not JSON"),
        ({"agents": []}, "agents: a list of 2 to 12"),
        ({"agents": [{"name": "A", "base_url": "http://x/v1", "model": "m"}] * 2}, "same name"),
        ({"agents": [{"name": "A", "base_url": "http://x/v1"}, {"name": "B"}]}, r"agents\[0\].model"),
        (
            {
                "agents": [
                    {"name": "A", "base_url": "ftp://x", "model": "m"},
                    {"name": "B", "base_url": "http://x/v1", "model": "m"},
                ]
            },
            r"agents\[0\] \(A\)",
        ),
        (
            {
                "agents": [
                    {"name": "A", "base_url": "http://x/v1", "model": "m"},
                    {"name": "B", "base_url": "http://x/v1", "model": "m"},
                ],
                "end_votes": 0,
            },
            "end_votes",
        ),
        (
            {
                "agents": [
                    {"name": "A", "base_url": "http://x/v1", "model": "m"},
                    {"name": "B", "base_url": "http://x/v1", "model": "m"},
                ],
                "max_turns": 1,
            },
            "max_turns",
        ),
        (
            {
                "agents": [
                    {"name": "A", "base_url": "http://x/v1", "model": "m"},
                    {"name": "B", "base_url": "http://x/v1", "model": "m"},
                ],
                "judge": {"model": "j"},
            },
            "judge.base_url",
        ),
        ({"agents": [], "colour": "red"}, "unknown key"),
    ],
)
def test_a_bad_configuration_is_refused_naming_the_field(tmp_path, config, message):
    with pytest.raises(CommandError, match=message):
        run(tmp_path, config)


def test_a_missing_file(tmp_path, db):
    with pytest.raises(CommandError, match="No such file"):
        call_command("tables", "play", str(tmp_path / "nope.json"))


def test_loopback_refused_by_the_outbound_policy_names_the_backend(tmp_path, db):
    config = {
        "agents": [
            {"name": "A", "base_url": "http://127.0.0.1:11434/v1", "model": "m"},
            {"name": "B", "base_url": "http://127.0.0.1:11434/v1", "model": "m"},
        ]
    }
    with pytest.raises(CommandError, match=r"agent [AB] \(http://127.0.0.1:11434/v1, model m\): "):
        run(tmp_path, config)


def test_a_model_the_server_does_not_list_is_refused_before_anything_is_played(tmp_path, loopback):
    with ChatStub() as stub:
        config = stub.config()
        config["agents"][2]["model"] = "llama3.1:8b"
        with pytest.raises(CommandError, match=r"agent Gamma .*model 'llama3.1:8b' is not on the server"):
            run(tmp_path, config)
    assert not Game.objects.exists() and stub.requests == []  # no chat completion was asked for


def test_a_server_without_a_model_list_gets_one_labelled_minimal_call(tmp_path, loopback):
    with ChatStub(models_endpoint=False) as stub:
        run(tmp_path, {**stub.config(), "max_turns": 3})
    checks = [r for r in stub.requests if r["body"].get("max_tokens") == 1]
    assert len(checks) == 3 and all("Platform check" in r["messages"][-1]["content"] for r in checks)


def test_probe_false_skips_the_check(tmp_path, loopback):
    with ChatStub() as stub:
        run(tmp_path, {**stub.config(), "max_turns": 3, "probe": False})
    assert stub.model_lists == 0


def test_a_local_server_refused_by_the_outbound_policy_says_how_to_allow_it(tmp_path, db, settings):
    settings.ARENA_OUTBOUND_ALLOW = []
    config = {
        "agents": [
            {"name": "A", "base_url": "http://localhost:11434/v1", "model": "m"},
            {"name": "B", "base_url": "http://localhost:11434/v1", "model": "m"},
        ]
    }
    with pytest.raises(CommandError) as refused:
        run(tmp_path, config)
    message = str(refused.value)
    assert "not started" in message and "localhost" in message and "loopback" in message
    assert "ARENA_OUTBOUND_ALLOW=" in message
    assert not Game.objects.exists()


def test_stub_players_and_a_model_server_play_together(tmp_path, loopback):
    with ChatStub({"Alpha": ["Bytes.", vote("Beta", "Beta answered like a person.")]}) as stub:
        config = {**stub.config(names=("Alpha",)), "max_turns": 6}
        config["agents"] += [{"name": "Beta", "engine": "stub"}, {"name": "Gamma", "engine": "stub"}]
        out = json.loads(run(tmp_path, config, "--json"))
    assert all(t["status"] == "done" for t in out["turns"]) and "void" not in out
    assert stub.model_lists == 1  # only the real server is checked


def test_the_stub_player_takes_no_server_settings(tmp_path, db):
    config = {"agents": [{"name": "A", "engine": "stub", "model": "m"}, {"name": "B", "engine": "stub"}]}
    with pytest.raises(CommandError, match=r"agents\[0\]: the stub player takes only name and engine"):
        run(tmp_path, config)


def test_a_server_that_works_again_is_not_held_back_by_an_earlier_game(tmp_path, loopback, settings):
    settings.ARENA_BOT_BREAKER_FAILURES = 1
    with ChatStub({"Beta": [(400, "", 0), "I am a machine again."]}) as stub:  # one failure, then it works
        out = json.loads(run(tmp_path, {**stub.config(), "max_turns": 6}, "--json"))
        assert "circuit breaker" in out["void"]
        # the same server (the same entry, its breaker open): the check finds it working, and the game is played
        out = json.loads(run(tmp_path, {**stub.config(), "max_turns": 4}, "--json"))
    assert out["draw"] and all(t["status"] == "done" for t in out["turns"])


def test_a_private_address_in_the_configuration_says_how_to_allow_it(tmp_path, db):
    config = {"agents": [{"name": n, "base_url": "http://10.0.0.5:8000/v1", "model": "m"} for n in "AB"]}
    with pytest.raises(CommandError, match=r"10\.0\.0\.5 is private.*ARENA_OUTBOUND_ALLOW=10\.0\.0\.5/32"):
        run(tmp_path, config)
