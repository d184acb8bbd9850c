"""Studies' business logic (writes). Views, consumers, tasks and commands call these only."""

from studies.services.flags import study_outliers_flag
from studies.services.games import game_create, game_message_post, game_screen, game_verdict
from studies.services.lobby import game_current, lobby_expire, lobby_join, lobby_leave
from studies.services.participants import (
    LIMITED,
    consent_give,
    device_hash,
    origin_hash,
    participant_create,
    participant_exclude,
    survey_submit,
)
from studies.services.setup import (
    study_config_read,
    study_config_validate,
    study_load,
    study_status_set,
    study_unopen,
)
from studies.services.transcripts import transcript_judge, transcript_judge_inverted, transcript_next
