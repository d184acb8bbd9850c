"""What a transcript page is given to replay: message by message without keystrokes, key by key with
them, times from the interrogation's first event, and keystrokes bounded (ARENA_REPLAY_MAX_KEYS)."""

import datetime as dt

from arena.models import Interrogation, Keystroke, Message
from arena.replay import transcript_replay

from .helpers import sides, three_party


def chat(cast, *, keys: bool):
    interrogation = three_party(cast)
    human, _ = sides(interrogation)
    start = dt.datetime(2026, 1, 1, 12, tzinfo=dt.UTC)
    from arena import services

    for n, (role, text, user) in enumerate([("interrogator", "Hi", cast.jude), ("witness", "Yo", cast.connie)]):
        message = services.message_post(conversation_id=human.pk, sender_role=role, text=text, user=user)
        Message.objects.filter(pk=message.pk).update(created_at=start + dt.timedelta(seconds=10 * (n + 1)))
    if keys:
        typed = [
            ("interrogator", "H", "H", 8),
            ("interrogator", "x", "x", 8.5),
            ("interrogator", "BackSpace", "", 9),
            ("interrogator", "i", "i", 9.5),
            ("interrogator", "Return", "", 10),
            ("witness", "Y", "Y", 19),
        ]
        Keystroke.objects.bulk_create(
            Keystroke(
                conversation=human, seq=n, sender_role=role, key=key, char=char, time=start + dt.timedelta(seconds=s)
            )
            for n, (role, key, char, s) in enumerate(typed, start=1)
        )
    return Interrogation.objects.get(pk=interrogation.pk), human


def test_without_keystrokes_a_transcript_replays_message_by_message(cast):
    interrogation, human = chat(cast, keys=False)
    replay = transcript_replay(interrogation=interrogation)
    assert replay["mode"] == "messages" and replay["duration_ms"] == 10_000
    conversation = next(c for c in replay["conversations"] if c["side"] == human.side)
    assert conversation["messages"] == [[0, "i", "Hi"], [10_000, "w", "Yo"]] and conversation["keys"] == []


def test_keystrokes_replay_key_by_key_and_are_bounded(cast, settings):
    interrogation, human = chat(cast, keys=True)
    replay = transcript_replay(interrogation=interrogation)
    conversation = next(c for c in replay["conversations"] if c["side"] == human.side)
    assert replay["mode"] == "keys" and replay["duration_ms"] == 12_000  # from the first key to the last message
    assert conversation["keys"] == [
        [0, "i", "H"],
        [500, "i", "x"],
        [1000, "i", "\b"],
        [1500, "i", "i"],
        [2000, "i", "\n"],
        [11_000, "w", "Y"],
    ]
    settings.ARENA_REPLAY_MAX_KEYS = 5
    bounded = transcript_replay(interrogation=interrogation)
    conversation = next(c for c in bounded["conversations"] if c["side"] == human.side)
    assert bounded["mode"] == "messages" and conversation["keys"] == [] and conversation["keys_dropped"] == 6
