"""Test clients that behave as the reference implementation's pages and a published entrant program do
on the wire (socket.io 1.x: Engine.IO 3, long-polling first, then the websocket), with what each shows
on its screen. They are written from how those pages behave, not copied from them:

- the judge page: registers and asks for the round at load, never again (not after a reconnect); puts
  its two partners left and right at random whenever it hears the round; shows a line from its right
  partner in the right pane and every other line in the left pane; empties both panes on a recap;
  shows what its judge types at once; has no TargetError handler; scores by partner name; shows its
  final-score form when it hears ``finalScore``;
- the confederate page: one pane, showing every line it hears; adds a recap to what it shows;
- the webcast page: sends ``setView`` without id or secret;
- the control panel: polls ``statusUpdate`` and shows every cell of ``connectedClients``;
- an entrant program (socketIO-client 0.7.2): registers, asks for the round, answers each line it hears,
  always addressed to ``judge0``, and ignores TargetError."""

import asyncio
import json
import random

import socketio_v4

TRANSPORTS = ["polling", "websocket"]  # socket.io 1.x starts on long-polling and upgrades


async def until(predicate, timeout: float = 10.0) -> None:
    """Wait until ``predicate()`` holds (what a person watching the screen waits for)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not predicate():
        if loop.time() > end:
            raise TimeoutError("the page never showed it")
        await asyncio.sleep(0.05)


class Page:
    def __init__(self, url: str, name: str, secret: str, *, reconnection: bool = False):
        self.url, self.name, self.secret = url, name, secret
        self.sio = socketio_v4.AsyncClient(reconnection=reconnection, reconnection_delay=0.2)
        self.heard: list[tuple[str, str]] = []  # (event, data) in order, for what the tests look at

    def _json(self, payload: dict) -> str:
        return json.dumps({**payload, "id": self.name, "secret": self.secret})

    async def emit(self, event: str, payload: dict) -> None:
        await self.sio.emit(event, self._json(payload))

    def on(self, event: str, handler) -> None:
        async def record(data=None):
            self.heard.append((event, data))
            result = handler(data)
            if asyncio.iscoroutine(result):
                await result

        self.sio.on(event, record)

    async def close(self) -> None:
        await self.sio.disconnect()


class JudgePage(Page):
    def __init__(self, url, name, secret, *, seed: int = 0, reconnection: bool = False):
        super().__init__(url, name, secret, reconnection=reconnection)
        self.rng = random.Random(seed)
        self.left = self.right = None
        self.panes: dict[str, list[tuple[str, str]]] = {"L": [], "R": []}  # (who, text): "you" or "them"
        self.final_form = False
        self.on("message", self._message)
        self.on("recap", self._recap)
        self.on("control", self._control)
        self.on("roundInformation", self._round_information)
        self.on("finalScore", self._final)

    async def load(self) -> "JudgePage":
        await self.sio.connect(self.url, transports=TRANSPORTS)
        await self.emit("control", {"status": "register"})
        await self.emit("control", {"status": "roundInformation"})
        return self

    def _place(self, partners: list[str]) -> None:
        self.left = self.right = partners[0]
        if self.rng.random() < 0.5:
            self.left = partners[1]
        else:
            self.right = partners[1]

    def _message(self, data) -> None:
        line = json.loads(data)
        self.panes["R" if line["id"] == self.right else "L"].append(("them", line["content"]))

    def _recap(self, data) -> None:
        self.panes = {"L": [], "R": []}
        for line in json.loads(data):
            if line["id"] == self.right:
                self.panes["R"].append(("them", line["content"]))
            elif line["id"] == self.left:
                self.panes["L"].append(("them", line["content"]))
            elif line["to"] == self.right:
                self.panes["R"].append(("you", line["content"]))
            elif line["to"] == self.left:
                self.panes["L"].append(("you", line["content"]))

    def _control(self, data) -> None:
        message = json.loads(data)
        if message["status"] == "newRound":
            self._place(message["partners"][self.name])
            self.panes = {"L": [], "R": []}

    async def _round_information(self, data) -> None:
        info = json.loads(data)
        if info["roundNumber"] >= 0:
            self._place(info["partners"][self.name])
        if info["status"] in ("Running", "Finished"):
            await self.emit("control", {"status": "recap"})

    def _final(self, data=None) -> None:
        self.final_form = True

    def partner(self, side: str) -> str:
        return self.left if side == "L" else self.right

    async def type(self, side: str, text: str) -> None:
        self.panes[side].append(("you", text))
        await self.emit("message", {"content": text, "to": self.partner(side)})

    async def score(self, side: str) -> None:
        await self.emit("score", {"robot": self.partner(side)})

    def shown(self, side: str, who: str = "them") -> list[str]:
        return [text for w, text in self.panes[side] if w == who]

    def platform_lines(self) -> list[str]:
        return [text for pane in self.panes.values() for _, text in pane if text.startswith("[platform] ")]


class ConfederatePage(Page):
    def __init__(self, url, name, secret, *, reconnection: bool = False):
        super().__init__(url, name, secret, reconnection=reconnection)
        self.partner = None
        self.pane: list[tuple[str, str]] = []
        self.on("message", lambda data: self.pane.append(("them", json.loads(data)["content"])))
        self.on("recap", self._recap)
        self.on("control", self._control)
        self.on("roundInformation", self._round_information)

    async def load(self) -> "ConfederatePage":
        await self.sio.connect(self.url, transports=TRANSPORTS)
        await self.emit("control", {"status": "register"})
        await self.emit("control", {"status": "roundInformation"})
        return self

    def _recap(self, data) -> None:
        for line in json.loads(data):
            self.pane.append(("you" if line["id"] == self.name else "them", line["content"]))

    def _control(self, data) -> None:
        message = json.loads(data)
        if message["status"] == "newRound":
            self.partner = message["partners"][self.name][0]
            self.pane = []

    async def _round_information(self, data) -> None:
        info = json.loads(data)
        if info["roundNumber"] >= 0:
            self.partner = info["partners"][self.name][0]
        if info["status"] == "Running":
            await self.emit("control", {"status": "recap"})

    async def type(self, text: str) -> None:
        self.pane.append(("you", text))
        await self.emit("message", {"content": text, "to": self.partner})

    def shown(self, who: str = "them") -> list[str]:
        return [text for w, text in self.pane if w == who]


class WebcastPage(Page):
    def __init__(self, url):
        super().__init__(url, "webcast", "")
        self.participants = None
        self.lines: list[dict] = []
        self.on("participants", lambda data: setattr(self, "participants", json.loads(data)))
        self.on("recap", lambda data: setattr(self, "lines", list(json.loads(data))))
        self.on("message", lambda data: self.lines.append(json.loads(data)))

    async def go(self, round_index: int, judge_index: int) -> "WebcastPage":
        await self.sio.connect(self.url, transports=TRANSPORTS)
        await self.sio.emit("webcast", json.dumps({"round": round_index, "judge": judge_index, "status": "setView"}))
        return self


class ControlPanel(Page):
    def __init__(self, url, secret):
        super().__init__(url, "CONTROLLER", secret)
        self.status: dict | None = None
        self.on("statusUpdate", lambda data: setattr(self, "status", json.loads(data)))

    async def load(self) -> "ControlPanel":
        await self.sio.connect(self.url, transports=TRANSPORTS)
        return self

    async def press(self, button: str) -> None:
        await self.emit("controller", {"status": button})

    async def poll(self) -> dict:
        self.status = None
        await self.emit("controller", {"status": "statusUpdate"})
        await until(lambda: self.status is not None)
        return self.status

    def cells(self, row: int) -> list[str]:
        """The panel's table row ``row`` as it shows it (every key of ``connectedClients[row]``)."""
        clients = self.status["connectedClients"]
        return list(clients[row]) if row < len(clients) else []


class FixedJudgeEntry(Page):
    """An entrant program that answers every line it hears, always addressed to ``judge0``."""

    def __init__(self, url, name, secret, answer=lambda text: f"You said: {text}"):
        super().__init__(url, name, secret)
        self.answer, self.questions = answer, []
        self.on("message", self._message)

    async def start(self) -> "FixedJudgeEntry":
        await self.sio.connect(self.url, transports=TRANSPORTS)
        await self.emit("control", {"status": "register"})
        await self.emit("control", {"status": "roundInformation"})
        return self

    async def _message(self, data) -> None:
        text = json.loads(data)["content"]
        self.questions.append(text)
        await self.emit("message", {"to": "judge0", "content": self.answer(text)})
