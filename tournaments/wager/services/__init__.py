"""The wager sessions' business logic (writes). Views, admin, commands and tests call these only."""

from tournaments.wager.services.audit import audit_record
from tournaments.wager.services.governance import (
    amendment_record,
    ballot_cast,
    committee_member_appoint,
    deadlock_vote_open,
)
from tournaments.wager.services.sessions import (
    interview_move,
    session_aggregation_set,
    session_create,
    session_publish,
    trial_reschedule,
)
from tournaments.wager.services.starts import interviews_start_due
from tournaments.wager.services.verdicts import trial_verdicts_submit
