"""Payload helpers every app's pushes share: timestamps as browsers read them, and the error frame."""

import datetime as dt


def iso(value: dt.datetime | None) -> str | None:
    """An aware datetime as ISO 8601 in UTC with a ``Z`` (None stays None)."""
    return value.astimezone(dt.UTC).isoformat().replace("+00:00", "Z") if value else None


def error(code: str, message: str) -> dict:
    """The one shape of a refusal sent on a websocket: ``code`` is machine-readable, ``message`` is
    safe to show to the sender."""
    return {"type": "error", "code": code, "message": message}
