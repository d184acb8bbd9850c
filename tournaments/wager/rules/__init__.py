"""The Kapor–Kurzweil rules as pure functions (no Django): the slot plan, verdict and rank validation, the
Human Determination and Rank Order tests, and the session's aggregation over trials.

Source: "A Wager on the Turing Test: The Rules" (Long Bets #1, 2002).
"""

from tournaments.wager.rules.plan import PlanError, Slot, candidate_labels, plan_check, slot_plan  # noqa: F401  re-exported: the rules' public functions
from tournaments.wager.rules.scoring import (  # noqa: F401  re-exported: the rules' public functions
    AGGREGATIONS,
    COMPUTER,
    RulesError,
    SessionScore,
    TrialScore,
    score_document,
    session_passed,
    trial_check,
    trial_score,
)
