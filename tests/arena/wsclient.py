"""Open websocket connections to the real ASGI application as a given user."""

import asyncio
import json

from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from tests.conftest import ORIGIN


@sync_to_async
def _session_cookie(user) -> bytes:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


class Socket:
    """A websocket client that keeps every payload it has received (for blindness checks)."""

    def __init__(self, communicator):
        self.communicator = communicator
        self.received: list[dict] = []

    async def send(self, frame) -> None:
        await self.communicator.send_to(text_data=frame if isinstance(frame, str) else json.dumps(frame))

    async def receive(self, timeout=10.0) -> dict:
        payload = json.loads(await self.communicator.receive_from(timeout=timeout))
        self.received.append(payload)
        return payload

    async def expect(self, type_, timeout=10.0, **match) -> dict:
        """Receive until a payload of this type (and matching fields) arrives (at once when it is due: the
        long default spares a loaded machine false failures)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            payload = await self.receive(timeout=max(0.05, end - loop.time()))
            if payload.get("type") == type_ and all(payload.get(k) == v for k, v in match.items()):
                return payload

    async def silent(self, timeout=0.3) -> bool:
        return await self.communicator.receive_nothing(timeout=timeout)

    async def close(self):
        await self.communicator.disconnect()


async def connect(path: str, user=None):
    from config.asgi import application

    headers = list(ORIGIN)
    if user is not None:
        headers.append((b"cookie", await _session_cookie(user)))
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, code = await communicator.connect(timeout=5)
    return Socket(communicator), connected, code
