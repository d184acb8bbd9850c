"""The delayed spectator feed (reads): what a spectator may see of an interrogation at `now`.

Only messages whose stored `created_at` is at least the feed's delay old, witnesses by side only;
the same rule as the scheduled pushes (arena.services.spectators), so every path shows the same.
"""

import datetime as dt

from django.utils import timezone

from arena import payloads
from arena.models import Interrogation, Message, SpectatorFeed
from core.errors import NotAllowed

MAX_MESSAGES = 500  # a spectator's state carries at most the last 500 released messages


def feed_for(*, interrogation: Interrogation) -> SpectatorFeed:
    feed = SpectatorFeed.objects.filter(interrogation=interrogation).first()
    if feed is None:
        raise NotAllowed("This interrogation has no spectator page.")
    return feed


def spectator_state(*, interrogation: Interrogation, now=None) -> dict:
    """{"status": ..., "messages": [...]} as a spectator may see them at `now` (default: the clock)."""
    feed = feed_for(interrogation=interrogation)
    now = now or timezone.now()
    cutoff = now - dt.timedelta(seconds=feed.delay_s)
    rows = (
        Message.objects.filter(conversation__interrogation=interrogation, created_at__lte=cutoff)
        .select_related("conversation")
        .order_by("-created_at", "-pk")[:MAX_MESSAGES]
    )
    messages = [payloads.spectator_message(m, m.conversation.side) for m in reversed(rows)]
    return {
        **payloads.spectator_status(interrogation, feed.delay_s),
        "type": "transcript",
        "kind": interrogation.kind,
        "sides": [c.side for c in interrogation.conversations.order_by("side")],
        "messages": messages,
    }
