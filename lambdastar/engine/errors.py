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


class ConfigErrors(ConfigError):
    """Several bad options at once: ``errors`` lists each (``option`` and ``message`` are the first's),
    so a form, the API or the command line can name every one in a single answer."""

    def __init__(self, errors: list[ConfigError]):
        self.errors = list(errors)
        super().__init__(self.errors[0].option, self.errors[0].message)
        self.args = ("; ".join(str(e) for e in self.errors),)

    @classmethod
    def raise_any(cls, errors: list[ConfigError]) -> None:
        """Raise nothing for no error, the error itself for one, a ConfigErrors for several."""
        if len(errors) == 1:
            raise errors[0]
        if errors:
            raise cls(errors)


def config_errors(exc: ConfigError) -> list[ConfigError]:
    """Every error a ConfigError carries (one, or a ConfigErrors' list)."""
    return list(getattr(exc, "errors", None) or [exc])
