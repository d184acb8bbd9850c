"""Times as people read them: ``{{ value|when }}`` (or ``|when:"time"``, ``|when:"date"``) renders
``<time datetime="2026-11-25T13:48:15Z" data-when="datetime">25 Nov 2026, 13:48:15 UTC</time>``: a
readable UTC fallback, rewritten into the reader's own time zone by static/core/time.js. Takes an aware
datetime or the ISO text of one (transcript payloads); seconds, never microseconds. A builtin of the
templates (settings.TEMPLATES), so pages need no ``{% load %}``."""

from __future__ import annotations

import datetime as dt

from django import template
from django.utils.html import format_html

register = template.Library()

STYLES = {
    "datetime": "%-d %b %Y, %H:%M:%S UTC",
    "time": "%H:%M:%S UTC",
    "date": "%-d %b %Y",
    "minute": "%-d %b %Y, %H:%M UTC",
}


def parse(value) -> dt.datetime | None:
    if isinstance(value, str):
        try:
            value = dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            return None
    if not isinstance(value, dt.datetime):
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=dt.UTC)
    return value.astimezone(dt.UTC)


def iso_seconds(value: dt.datetime) -> str:
    """ISO 8601 in UTC, to the millisecond at most (what a browser's Date reads exactly)."""
    return value.isoformat(timespec="milliseconds").replace("+00:00", "Z")


@register.filter(is_safe=True)
def when(value, style: str = "datetime"):
    """A ``<time>`` element for ``value`` (a datetime or ISO text); "" for None, the text itself if unreadable."""
    moment = parse(value)
    if moment is None:
        return "" if value in (None, "") else value
    style = style if style in STYLES else "datetime"
    return format_html(
        '<time datetime="{}" data-when="{}">{}</time>', iso_seconds(moment), style, moment.strftime(STYLES[style])
    )
