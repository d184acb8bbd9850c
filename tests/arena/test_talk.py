"""manage.py talk: one message, or an interactive session reading stdin."""

import io

import pytest
from django.core.management import CommandError, call_command

from bots.engines.simple import SIMPLE_REPLY


def talk(*args, stdin=None, monkeypatch=None):
    out, err = io.StringIO(), io.StringIO()
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    call_command("talk", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_one_message_to_an_engine(db):
    assert talk("simple", "hello")[0].strip() == SIMPLE_REPLY


def test_an_entry_by_id(cast):
    out, _ = talk(str(cast.eliza.pk), "I feel tired")
    assert out.strip() and out.strip() != SIMPLE_REPLY


def test_interactive_mode_keeps_the_conversation(db, monkeypatch):
    out, _ = talk("eliza", stdin="Hello\n\nI am sad\nbye\n", monkeypatch=monkeypatch)
    assert len(out.strip().splitlines()) == 3


def test_errors_are_reported(cast, monkeypatch):
    with pytest.raises(CommandError, match="unknown bot engine"):
        talk("nope", "hi")
    with pytest.raises(CommandError, match="base_url"):
        talk("llm", "hi", "--engine-settings", '{"model": "m"}')
    with pytest.raises(CommandError, match="No entry"):
        talk("99999", "hi")
    with pytest.raises(CommandError, match="failed"):  # nothing listens on port 9: an error, no traceback
        talk(
            "webhook",
            "hi",
            "--engine-settings",
            '{"url": "http://127.0.0.1:9/", "secret": "0123456789abcdef", "timeout_s": 0.5}',
        )
