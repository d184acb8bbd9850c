"""A study's control room (a selector: reads only, no HTTP): draft → open → running → closed → exported,
where it stands, what is missing, and the next action (the study admin's list actions, which call
``services.study_status_set``); the undo is ``services.study_unopen`` (open, no one has taken part yet)."""

from django.urls import reverse

from arena.control import Action, Item, Room, timeline
from studies import selectors
from studies.models import Study

STEPS = [
    ("draft", "Draft"),
    ("open", "Open on /play/"),
    ("running", "Running"),
    ("closed", "Closed"),
    ("exported", "Exported"),
]


def study_stage(*, study: Study) -> str:
    if study.status == Study.Status.DRAFT:
        return "draft"
    if study.status == Study.Status.CLOSED:
        return "exported"  # closed: its data wait on its page, to download
    return "running" if study.games.exists() else "open"


def study_control(*, study: Study) -> Room:
    """The study's control room (``arena.control.Room``)."""
    stage = study_stage(study=study)
    page = reverse("studies:detail", args=[study.pk])
    room = Room(title=str(study), steps=timeline(STEPS, stage))
    room.links = [Action("page", "Results and downloads", url=page)]
    live = selectors.study_live(study=study)
    if stage == "draft":
        other = selectors.open_study()
        if other is not None:
            room.notes.append(f"{other} is open: /play/ serves the newest open study, which this one would become.")
        if not study.conditions.exists():
            room.missing.append(Item("no AI witness (condition) in the design", "missing"))
        room.next = Action("open_studies", "Open on /play/")
        return room
    if stage in ("open", "running"):
        if stage == "open":
            room.waiting = "Waiting for the first participants on /play/."
            if not live["participants"]:
                room.undo.append(Action("back_to_draft", "Back to draft (no one has taken part)"))
        counts = [(live["running"], "game(s) still running"), (live["waiting"], "participant(s) waiting in the lobby")]
        room.notes += [f"{n} {what}: closing lets no one start another game." for n, what in counts if n]
        room.next = Action("close_studies", "Close the study")
        return room
    room.next = Action("export", "Download the data (CSV, JSON lines)", url=page + "#downloads")
    return room
