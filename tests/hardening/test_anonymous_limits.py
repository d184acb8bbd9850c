"""Anonymous sockets (spectators) share one budget per client address, however many sockets they open: past
it a frame gets a rate_limited error frame (the socket stays open) and a connect is refused (4429);
another address keeps its own budget."""

import pytest
from asgiref.sync import sync_to_async
from asgiref.testing import ApplicationCommunicator
from channels.testing import WebsocketCommunicator

from markets import services
from tests.arena.wsclient import Socket
from tests.conftest import ORIGIN

pytestmark = pytest.mark.django_db(transaction=True)


@sync_to_async
def open_game(cast):
    game = services.game_create(title="watched", humans=[cast.connie], entries=[], max_bettors=8)
    services.game_open(game_id=game.pk)
    return game


async def watch(game, address):
    """A spectator's socket from ``address``: (socket, connected, close code)."""
    from config.asgi import application

    path = f"/ws/markets/{game.public_id}/watch/"
    scope = {
        "type": "websocket",
        "path": path,
        "query_string": b"",
        "headers": list(ORIGIN),
        "subprotocols": [],
        "client": (address, 40_000),
    }
    communicator = WebsocketCommunicator.__new__(WebsocketCommunicator)
    ApplicationCommunicator.__init__(communicator, application, scope)
    communicator.scope, communicator.response_headers = scope, None
    connected, code = await communicator.connect(timeout=5)
    return Socket(communicator), connected, code


async def test_anonymous_sockets_of_one_address_share_one_budget(cast, settings, end_stray_sessions):
    settings.ARENA_RATE_MESSAGE_PER_ADDRESS = 30
    game = await open_game(cast)
    sockets = []
    for _ in range(5):  # five connects: five of the thirty
        socket, connected, _ = await watch(game, "10.7.0.1")
        assert connected
        await socket.expect("state")
        sockets.append(socket)
    answers = []
    for socket in sockets:  # fifty state reads over five sockets: twenty-five fit
        for _ in range(10):
            await socket.send({"type": "state"})
            answers.append(await socket.receive())
    assert [a["type"] for a in answers].count("state") == 25
    refused = [a for a in answers if a["type"] == "error"]
    assert len(refused) == 25 and {a["code"] for a in refused} == {"rate_limited"}

    _, connected, code = await watch(game, "10.7.0.1")  # the address's budget is spent: no new socket
    assert not connected and code == 4429
    other, connected, _ = await watch(game, "10.7.0.2")  # another address has its own
    assert connected and (await other.expect("state"))["type"] == "state"
    for socket in [*sockets, other]:
        await socket.close()
