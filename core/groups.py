"""Channel-group names are built here from an app label, a kind and database ids only, never from user
input: each app's ``groups`` module names its groups with :func:`group_name`."""

import re

_LABEL = re.compile(r"[a-z][a-z0-9_]*\Z")


def group_name(app: str, kind: str, *ids: int) -> str:
    """``app.kind[.id...]``: ``group_name("arena", "judge", 7) == "arena.judge.7"``. Ids must be integers
    (an id that is not raises), so no text from outside can reach a group name."""
    for part in (app, kind):
        if not _LABEL.match(part):
            raise ValueError(f"bad group label {part!r}")
    return ".".join([app, kind, *(str(int(i)) for i in ids)])
