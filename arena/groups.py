"""Every channel-group name of the arena, built from database ids only (never from user input)."""

from core.groups import group_name


def judge_group(interrogation_id: int) -> str:
    return group_name("arena", "judge", interrogation_id)


def witness_group(conversation_id: int) -> str:
    return group_name("arena", "witness", conversation_id)


def conversation_group(conversation_id: int) -> str:
    """A conversation's messages: its judge's and its confederate's consoles (each forwards only its own
    payload of an event; see arena.consumers)."""
    return group_name("arena", "conversation", conversation_id)


def monitor_group() -> str:
    return group_name("arena", "monitor")


def spectators_group(interrogation_id: int) -> str:
    """The public watching an interrogation through its spectator feed: messages only once released
    (their stored time + the feed's delay), witnesses by side only."""
    return group_name("arena", "spectators", interrogation_id)
