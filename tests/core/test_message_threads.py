"""Chat messages are stored on threads of their own (core.consumers.db_message), so a message never waits
behind pages' connects, state reads or lobby joins in the shared pool."""

import threading

import pytest

from core.consumers import db, db_message, message_executor

# database_sync_to_async checks the thread's connection before and after the call: a message thread that
# served an earlier test holds one, and pytest-django refuses it in a test without database access
pytestmark = pytest.mark.django_db


async def test_a_message_runs_on_the_message_threads_and_a_page_call_does_not():
    assert (await db_message(lambda: threading.current_thread().name)()).startswith("messages")
    assert not (await db(lambda: threading.current_thread().name)()).startswith("messages")
    assert message_executor() is message_executor()
