"""Results over every format: the registry that formats plug into (`sources`: the protocol, documented
there), the built-in source of the arena's own interrogations (`arena_source`), tabulation (`compute`),
the results cache (`cache`; the pages' reads over it are arena.selectors.results), the filter form
(`filters`) and the downloads (`exports`).  A format imports what it needs from here:

    from arena.results import Outcome, Battle, ResultsQuery, source_register, judge_key, human_name
"""

from arena.results.sources import (
    HUMAN,
    Battle,
    Outcome,
    ResultsQuery,
    ResultsSource,
    battles_from_outcomes,
    formats_registered,
    human_name,
    judge_key,
    source_register,
    source_unregister,
    sources_registered,
)

__all__ = [
    "HUMAN",
    "Battle",
    "Outcome",
    "ResultsQuery",
    "ResultsSource",
    "battles_from_outcomes",
    "formats_registered",
    "human_name",
    "judge_key",
    "source_register",
    "source_unregister",
    "sources_registered",
]
