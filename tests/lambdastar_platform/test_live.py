"""Live progress over Channels: the state on connect, pushes while the chunks run, the finish."""

import pytest
from asgiref.sync import sync_to_async

from lambdastar import services
from tests.arena.wsclient import connect
from tests.conftest import make_user

from .conftest import tiny

pytestmark = pytest.mark.django_db(transaction=True)


async def test_the_page_socket_follows_an_experiment_to_its_end(executor):
    owner = await sync_to_async(make_user)("rita")
    experiment = await sync_to_async(services.experiment_create)(owner=owner, name="live", configuration=tiny(), seed=1)
    socket, connected, _ = await connect(f"/ws/lambdastar/experiments/{experiment.pk}/", owner)
    assert connected
    state = await socket.receive()
    assert (state["type"], state["status"], state["done"]) == ("progress", "draft", 0)
    await sync_to_async(services.experiment_launch)(experiment_id=experiment.pk)
    final = await socket.expect("progress", timeout=60, status="finished")
    assert final["done"] == final["total"] == 56 and final["rate"] > 0
    assert any(p["status"] == "running" and 0 < p["done"] < 56 for p in socket.received)
    await socket.close()


async def test_an_outsider_cannot_follow_it():
    owner = await sync_to_async(make_user)("rita")
    experiment = await sync_to_async(services.experiment_create)(owner=owner, name="live", configuration=tiny())
    outsider = await sync_to_async(make_user)("oscar")
    _, connected, code = await connect(f"/ws/lambdastar/experiments/{experiment.pk}/", outsider)
    assert not connected and code == 4403
