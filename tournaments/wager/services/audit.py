"""The append-only audit log of organiser actions (the committee's first duty is to deter cheating)."""

from tournaments.wager.models import AuditEntry


def _plain(value):
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


def audit_record(*, actor, action: str, session=None, detail: dict | None = None) -> AuditEntry:
    """Append one entry; `actor` None is the platform itself (a command, a rehearsal)."""
    actor = actor if actor is not None and getattr(actor, "is_authenticated", False) else None
    return AuditEntry.objects.create(
        actor=actor,
        actor_name=actor.get_username() if actor else "",
        session=session,
        action=action[:60],
        detail=_plain(detail or {}),
    )
