"""Echo: replies with the judge's own words. For rehearsals and for testing a connector end to end."""

from __future__ import annotations

from ..base import Engine, ReplyContext


class EchoEngine(Engine):
    name = "echo"
    label = "Echo (repeats the judge's words; for testing)"

    def reply(self, context: ReplyContext) -> str:
        return context.message
