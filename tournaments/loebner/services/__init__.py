"""The Loebner app's business logic (writes): keyword-only functions called by the admin, views, API,
tasks and commands alike."""

from tournaments.loebner.services.entries import (
    contest_close,
    contest_enter,
    contest_open,
    entry_check,
    entry_compliance_refusal,
    entry_people_clashes,
    people_rows,
)
from tournaments.loebner.services.judging import (
    contest_tie_decide,
    judgment_record,
    judgments_sync,
    ranks_submit,
)
from tournaments.loebner.services.publication import contest_publish
from tournaments.loebner.services.qualifying import (
    answer_score,
    audience_vote,
    control_answers_record,
    finalists_pick,
    qualifying_ask,
    qualifying_start,
)
from tournaments.loebner.services.rounds import (
    meeting_ended,
    participants_assign,
    round_end_if_done,
    round_finish,
    round_pause,
    round_restart,
    round_resume,
    round_start,
    round_tick,
    rounds_tick_running,
    schedule_create,
)
from tournaments.loebner.services.undo import contest_reopen, contest_unopen
