class ArenaError(Exception):
    """A refused action: `code` is machine-readable, the message is safe to show to the sender."""

    code = "refused"

    def __init__(self, message: str, *, code: str | None = None):
        super().__init__(message)
        if code:
            self.code = code


class InvalidInput(ArenaError):
    code = "invalid"


class NotAllowed(ArenaError):
    code = "forbidden"


class Closed(ArenaError):
    code = "closed"


class Conflict(ArenaError):
    """Not possible in the current state (a reply to nothing, a second answer): HTTP 409."""

    code = "conflict"
