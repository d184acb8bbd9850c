"""A test engine that fails on cue, registered as entry "Flaky" with a fast breaker and fast retries.

Used by every app's reply-path tests (interrogation witnesses, the Turing Trade target): they share
the one engine gateway, so they share its failure behaviour.
"""

import pytest

from arena.models import Entry
from bots.base import Engine, ReplyContext

from ..conftest import FAST

SCRIPT: list = []  # what FlakyEngine does next: a str to answer, anything else to return or raise


class FlakyEngine(Engine):
    name = "flaky"
    label = "test engine"

    def reply(self, context: ReplyContext):
        step = SCRIPT.pop(0) if SCRIPT else "fine, thanks"
        if isinstance(step, BaseException):
            raise step
        return step


@pytest.fixture
def flaky(cast, monkeypatch, settings):
    from bots import registry

    monkeypatch.setitem(registry.BUILTIN, "flaky", f"{__name__}:FlakyEngine")
    settings.ARENA_BOT_RETRY_BASE_S = 0.05
    settings.ARENA_BOT_BREAKER_FAILURES = 3
    settings.ARENA_BOT_BREAKER_COOLDOWN_S = 0.3
    SCRIPT.clear()
    yield Entry.objects.create(display_name="Flaky", engine="flaky", settings=dict(FAST))
    SCRIPT.clear()
