"""Group names come from ids only: text from outside can never become (part of) a group name."""

import pytest

from arena import groups as arena_groups
from core.groups import group_name
from lambdastar import groups as lambdastar_groups
from markets import groups as markets_groups


def test_names_are_app_kind_and_integer_ids():
    assert group_name("arena", "judge", 7) == "arena.judge.7"
    assert group_name("arena", "monitor") == "arena.monitor"
    assert group_name("markets", "bettor", "12") == "markets.bettor.12"  # a numeric string is an id


@pytest.mark.parametrize("bad_id", ["7.evil", "x", None, "1e3", "1;drop"])
def test_anything_but_an_integer_id_is_refused(bad_id):
    with pytest.raises((TypeError, ValueError)):
        group_name("arena", "judge", bad_id)


@pytest.mark.parametrize("label", ["Arena", "arena.judge", "", "arena judge", "9arena"])
def test_labels_are_plain_names(label):
    with pytest.raises(ValueError):
        group_name(label, "judge", 1)


def test_every_app_builds_its_names_here():
    assert arena_groups.conversation_group(3) == "arena.conversation.3"
    assert markets_groups.spectators_group(4) == "markets.spectators.4"
    assert lambdastar_groups.experiment_group(5) == "lambdastar.experiment.5"
    with pytest.raises(ValueError):
        arena_groups.judge_group("1;drop")
