"""The control rooms' one structure (arena.control): a timeline from where a run stands or from what is
done, and a room that offers only its own buttons."""

from arena.control import CURRENT, DONE, SKIPPED, TODO, Action, Item, Room, first_missing, timeline

STEPS = [("a", "A"), ("b", "B"), ("c", "C")]


def test_a_timeline_marks_what_is_done_where_it_stands_and_what_is_skipped_once_it_ended():
    assert [s.state for s in timeline(STEPS, "b")] == [DONE, CURRENT, TODO]
    assert [s.state for s in timeline(STEPS, "b", ended=True)] == [DONE, CURRENT, SKIPPED]
    assert [s.state for s in timeline(STEPS, None)] == [DONE, DONE, DONE]
    assert first_missing([("a", "A", True), ("b", "B", False), ("c", "C", False)]) == "b"
    assert first_missing([("a", "A", True)]) is None


def test_a_room_offers_its_buttons_only_never_its_links():
    room = Room(
        title="x",
        steps=timeline(STEPS, None),
        next=Action("go", "Go"),
        undo=[Action("back", "Back")],
        items=[Item("one", "pending", (Action("mark", "mark", target=7), Action("see", "see", url="/see/")))],
        links=[Action("page", "Page", url="/page/")],
    )
    assert room.finished and room.current is None
    assert [a.name for a in room.actions()] == ["go", "back", "mark"]
    assert room.action("mark", 7) is not None and room.action("mark", 8) is None
    assert room.action("see", None) is None and room.action("page", None) is None
