"""Real socket.io clients for the LPP2 tests: python-socketio 5 (Engine.IO 4) and the aliased
python-socketio 4 (Engine.IO 3, the protocol of the reference pages' socket.io 1.4.5)."""

import asyncio
import json

EVENTS = ("message", "control", "roundInformation", "recap", "AuthError", "TargetError", "statusUpdate", "participants")


class Lpp2Client:
    def __init__(self, url: str, name: str, secret: str, *, eio: int = 4, transports=("websocket",)):
        self.url, self.name, self.secret, self.eio, self.transports = url, name, secret, eio, list(transports)
        self.queues = {event: asyncio.Queue() for event in EVENTS}
        if eio == 3:
            import socketio_v4

            self.sio = socketio_v4.AsyncClient(reconnection=False)
        else:
            import socketio

            self.sio = socketio.AsyncClient(reconnection=False)
        for event in EVENTS:
            self.sio.on(event, self._recorder(event))

    def _recorder(self, event):
        async def record(data=None):
            await self.queues[event].put(data)

        return record

    async def connect(self, *, register: bool = True) -> "Lpp2Client":
        await self.sio.connect(self.url, transports=self.transports)
        self.greeting = await self.next("roundInformation")  # every new socket hears the round first
        if register:
            await self.send("control", {"status": "register"})
            await self.send("control", {"status": "roundInformation"})  # answered once registered
            await self.next("roundInformation")
        return self

    async def send(self, event: str, payload: dict, *, secret: str | None = None) -> None:
        """As the reference pages do: the map with id and secret, stringified."""
        await self.sio.emit(event, json.dumps({**payload, "id": self.name, "secret": secret or self.secret}))

    async def next(self, event: str, timeout: float = 5.0):
        return await asyncio.wait_for(self.queues[event].get(), timeout)

    async def none(self, event: str, wait: float = 0.4) -> bool:
        try:
            await asyncio.wait_for(self.queues[event].get(), wait)
        except TimeoutError:
            return True
        return False

    async def close(self) -> None:
        await self.sio.disconnect()
