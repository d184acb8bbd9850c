"""A batch of pushes that hangs (a Redis connection that never answers) is given up after
core.notify.SEND_TIMEOUT_S and logged: the pushes queued after it still go out."""

import asyncio
import logging

from core import notify


def test_a_hung_send_is_given_up_and_later_pushes_go_out(monkeypatch, caplog, settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    sent, hung = [], asyncio.Event()

    async def send_all(layer, events):
        if not sent and not hung.is_set():
            hung.set()
            await asyncio.Event().wait()  # never answers
        sent.append([group for group, _ in events])

    notify.flush()
    monkeypatch.setattr(notify, "_send_all", send_all)
    monkeypatch.setattr(notify, "SEND_TIMEOUT_S", 0.2)
    with caplog.at_level(logging.ERROR, logger="core.notify"):
        notify.push("first", {"type": "refresh"})
        assert notify.flush(5)  # the hung batch was given up
        notify.push("second", {"type": "refresh"})
        assert notify.flush(5)
    assert sent == [["second"]]
    assert "pushes to ['first'] failed" in caplog.text
