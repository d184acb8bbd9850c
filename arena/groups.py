"""Every channel-group name of the arena, built from database ids only (never from user input)."""


def judge_group(interrogation_id: int) -> str:
    return f"arena.judge.{int(interrogation_id)}"


def witness_group(conversation_id: int) -> str:
    return f"arena.witness.{int(conversation_id)}"


def conversation_group(conversation_id: int) -> str:
    """A conversation's messages: its judge's and its confederate's consoles (each forwards only its own
    payload of an event; see arena.consumers)."""
    return f"arena.conversation.{int(conversation_id)}"


def monitor_group() -> str:
    return "arena.monitor"
