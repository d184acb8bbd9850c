"""Errors raised by the Λ* engine."""


class ConfigError(ValueError):
    """A bad engine configuration, detected before any work starts.

    ``option`` names the offending option (the CLI flag without dashes, e.g.
    ``"grid"``, ``"agents"``, ``"types"``) so callers can point at it.
    """

    def __init__(self, option: str, message: str):
        self.option = option
        self.message = message
        super().__init__(f"{option}: {message}")
