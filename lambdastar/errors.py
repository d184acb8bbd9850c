"""Refusals of the Λ* platform (the engine's own ConfigError covers bad configurations)."""

from core.errors import ArenaError


class ExperimentError(ArenaError):
    """An action the experiment's state does not allow (launch twice, resume a cancelled one…)."""

    code = "experiment"


class QuotaExceeded(ExperimentError):
    code = "quota"
