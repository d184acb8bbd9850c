"""What a transcript page needs to replay a conversation as it was typed (static/arena/replay.js).

Times are milliseconds from the interrogation's first message or key, so that the conversations of a
three-party interrogation replay side by side in step. A conversation with stored keystrokes (keystroke
mode, the LPP bridge, imported LPP logs) replays key by key; one without, message by message at their
times. The keystrokes sent to a page are bounded: a conversation with more than
``ARENA_REPLAY_MAX_KEYS`` replays message by message (``keys_dropped`` says how many it had).
"""

from __future__ import annotations

from django.conf import settings
from django.db.models import Count

from arena.models import Interrogation, Keystroke, Message
from arena.services.keystrokes import BACKSPACE, RETURN

ROLES = {Message.Role.INTERROGATOR: "i", Message.Role.WITNESS: "w"}


def _ms(moment, start) -> int:
    return max(0, round((moment - start).total_seconds() * 1000))


def transcript_replay(*, interrogation: Interrogation) -> dict:
    """{"mode", "duration_ms", "conversations": [{"side", "messages": [[ms, role, text]], "keys": [[ms,
    role, text]], "keys_dropped"}]}; a key's text is its character, "\\b" for BackSpace, "\\n" for Return."""
    limit = settings.ARENA_REPLAY_MAX_KEYS
    conversations = list(interrogation.conversations.annotate(key_count=Count("keystrokes")).order_by("side"))
    messages = {
        c.pk: list(c.messages.order_by("seq").values_list("sender_role", "text", "created_at")) for c in conversations
    }
    keys = {
        c.pk: list(
            Keystroke.objects.filter(conversation=c, time__isnull=False)
            .order_by("seq")
            .values_list("sender_role", "key", "char", "time")
        )
        for c in conversations
        if 0 < c.key_count <= limit
    }
    moments = [m[2] for rows in messages.values() for m in rows] + [k[3] for rows in keys.values() for k in rows]
    if not moments:
        return {"mode": "messages", "duration_ms": 0, "conversations": []}
    start = min(moments)
    result = []
    for c in conversations:
        typed = [
            [_ms(t, start), ROLES.get(role, "w"), "\b" if key == BACKSPACE else "\n" if key == RETURN else char]
            for role, key, char, t in keys.get(c.pk, [])
        ]
        result.append(
            {
                "side": c.side,
                "messages": [[_ms(t, start), ROLES.get(role, "w"), text] for role, text, t in messages[c.pk]],
                "keys": [k for k in typed if k[2]],
                "keys_dropped": c.key_count if c.key_count > limit else 0,
            }
        )
    return {"mode": "keys" if keys else "messages", "duration_ms": _ms(max(moments), start), "conversations": result}
