"""/healthz reports each dependency and fails (503) when one is down."""

import socket

import pytest

pytestmark = pytest.mark.django_db(transaction=True)


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # nothing listens there once the socket is closed


def test_all_up_in_the_mode_of_this_run(client, settings):
    response = client.get("/healthz")
    body = response.json()
    assert response.status_code == 200 and body["ok"] is True
    assert set(body["checks"]) == {"database", "channel_layer", "broker", "cache"}
    assert body["checks"]["database"]["backend"] == settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1].replace(
        "sqlite3", "sqlite"
    )
    assert all(check["ok"] and check["ms"] >= 0 for check in body["checks"].values())


def test_a_channel_layer_redis_that_is_gone_turns_health_red(client, settings):
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "core.channel_layer.RedisChannelLayer",
            "CONFIG": {"hosts": [{"address": f"redis://127.0.0.1:{closed_port()}/0"}]},
        }
    }
    response = client.get("/healthz")
    body = response.json()
    assert response.status_code == 503 and body["ok"] is False
    assert body["checks"]["channel_layer"] == {
        **body["checks"]["channel_layer"],
        "ok": False,
        "error": "ConnectionError",
    }
    assert body["checks"]["database"]["ok"] is True


@pytest.mark.slow
def test_a_broker_that_is_gone_turns_health_red(client, settings):
    from celery import current_app

    settings.CELERY_TASK_ALWAYS_EAGER = False
    url = f"redis://127.0.0.1:{closed_port()}/0"
    old = current_app.conf.broker_url
    current_app.conf.broker_url = url
    try:
        response = client.get("/healthz")
    finally:
        current_app.conf.broker_url = old
    body = response.json()
    assert response.status_code == 503
    assert body["checks"]["broker"]["ok"] is False and "error" in body["checks"]["broker"]
