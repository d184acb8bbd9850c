"""The control room's data, one small structure for every app that runs something in steps (a Loebner
contest, a wager session, a study): the steps as a timeline, where it stands, what is missing for the next
step (each item named), the one next action, the undos the rules allow, and things to decide one by one
(a contest's entries and their compliance). Pure data, no HTTP: each app's selector builds a ``Room``
(``tournaments.loebner.control``, ``tournaments.wager.control``, ``studies.control``); the admin shows
and runs it (``arena.control_admin``)."""

from dataclasses import dataclass, field

DONE, CURRENT, TODO, SKIPPED = "done", "current", "todo", "skipped"


@dataclass(frozen=True)
class Step:
    key: str
    label: str
    state: str = TODO  # DONE, CURRENT (where it stands), TODO, or SKIPPED (never reached: the run ended earlier)


@dataclass(frozen=True)
class Action:
    """Something the organiser can do from the room. ``url``: a page to go to (a link); otherwise a button
    that posts ``name`` (and ``target``) back to the room, where the admin runs the list action of that name
    on ``model`` (an admin action, so the same service as the admin's list) or the room's own service."""

    name: str
    label: str
    url: str = ""
    model: str = ""  # "app_label.ModelName" of the list action; "" for the room's own object
    target: int | None = None  # the object the action is for; None for the room's own object
    consequence: str = ""  # set: irreversible, asked first by the room (unless its list action asks itself)

    @property
    def is_link(self) -> bool:
        return bool(self.url)


@dataclass(frozen=True)
class Item:
    """One thing to decide, with its state and the actions that decide it (an entry: compliant or not)."""

    label: str
    state: str
    actions: tuple[Action, ...] = ()
    note: str = ""


@dataclass
class Room:
    title: str
    steps: list[Step]
    missing: list[str] = field(default_factory=list)  # what the next step needs, each named
    next: Action | None = None
    waiting: str = ""  # when no button moves it on: who or what it waits for
    undo: list[Action] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # warnings that do not block
    items_title: str = ""
    items: list[Item] = field(default_factory=list)
    links: list[Action] = field(default_factory=list)  # the app's other pages for this object

    @property
    def current(self) -> Step | None:
        return next((s for s in self.steps if s.state == CURRENT), None)

    @property
    def finished(self) -> bool:
        return bool(self.steps) and all(s.state in (DONE, SKIPPED) for s in self.steps) and self.current is None

    def actions(self) -> list[Action]:
        """Every button of the room: what a post may ask for (anything else is refused)."""
        found = [self.next] if self.next else []
        found += self.undo + [a for item in self.items for a in item.actions]
        return [a for a in found if not a.is_link]

    def action(self, name: str, target: int | None) -> Action | None:
        return next((a for a in self.actions() if a.name == name and a.target == target), None)


def timeline(steps: list[tuple[str, str]], at: str | None, *, ended: bool = False) -> list[Step]:
    """The steps ``[(key, label)]`` with the ones before ``at`` done and ``at`` current; ``at`` None: every
    step done. ``ended``: the run stopped at ``at`` for good (a prize rolled over): the later steps are
    skipped, not to do."""
    keys = [key for key, _ in steps]
    index = len(keys) if at is None else keys.index(at)
    later = SKIPPED if ended else TODO
    return [
        Step(key, label, DONE if i < index else CURRENT if i == index else later)
        for i, (key, label) in enumerate(steps)
    ]


def first_missing(steps: list[tuple[str, str, bool]]) -> str | None:
    """The key of the first step ``[(key, label, complete)]`` not complete, or None: where a run stands
    whose steps are known by what is done (a wager session) rather than by a status."""
    return next((key for key, _label, complete in steps if not complete), None)
