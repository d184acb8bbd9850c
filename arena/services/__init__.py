"""The arena's business logic (writes). Views, consumers, tasks and commands call these only."""

from arena.services.interrogations import (
    interrogation_close_if_due,
    interrogation_create,
    interrogation_end,
    interrogation_ended_register,
    interrogation_start,
    interrogations_close_due,
)
from arena.services.keystrokes import composing_line, keystrokes_record, keystrokes_store
from arena.services.messages import message_post, typing_signal
from arena.services.publication import interrogation_publish, interrogation_unpublish
from arena.services.results import results_version_bump
from arena.services.sweep import interrogations_sweep, sweep_register
from arena.services.verdicts import verdict_submit
from arena.services.witnesses import bot_reply_compose, bot_reply_deliver
