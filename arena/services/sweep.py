"""The periodic sweep (at start-up, and every 5 s under Celery beat): what a restart or a lost timer left
undone. It sits above the interrogation and witness services, which it calls."""

from arena.services.interrogations import interrogations_close_due
from arena.services.rehearsals import rehearsal_judges_resume
from arena.services.witnesses import bot_replies_resume


def interrogations_sweep() -> int:
    """The periodic sweep (start-up, Celery beat): close what is due, and ask again for machine
    replies and rehearsal judges' looks that a restart lost. Returns how many interrogations it closed."""
    closed = interrogations_close_due()
    bot_replies_resume()
    rehearsal_judges_resume()
    return closed
