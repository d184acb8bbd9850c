"""The periodic sweep (at start-up, and every 5 s under Celery beat): what a restart or a lost timer left
undone. It sits above the interrogation and witness services, which it calls, and runs the steps the
formats built on the arena register (a Loebner round whose last meeting ended before a crash)."""

from arena.services.interrogations import interrogations_close_due
from arena.services.rehearsals import rehearsal_judges_resume
from arena.services.spectators import spectator_releases_resume
from arena.services.witnesses import bot_replies_resume

_STEPS: list = []


def sweep_register(step) -> None:
    """``step()``: more of what a restart or a lost timer left undone, run by every sweep after the arena's
    own (idempotent: it runs every 5 s)."""
    if step not in _STEPS:
        _STEPS.append(step)


def interrogations_sweep() -> int:
    """The periodic sweep (start-up, Celery beat): close what is due, ask again for machine replies and
    rehearsal judges' looks that a restart lost, push spectator releases whose task a lost broker took
    with it, then the registered steps. Returns how many interrogations it closed."""
    closed = interrogations_close_due()
    bot_replies_resume()
    rehearsal_judges_resume()
    spectator_releases_resume()
    for step in _STEPS:
        step()
    return closed
