import string

import pytest

from lpp.protocol.keys import LENIENT_NAMES, SPECIAL_NAMES, char_for, name_for, names_for_text, to_ascii


def test_every_printable_ascii_character_round_trips_through_its_canonical_name():
    for char in string.printable:
        if char in "\r\x0b\x0c":
            continue  # no LPP key for these
        name = name_for(char)
        assert char_for(name) == char
        if char.isalnum():
            assert name == char  # letters and digits travel literally
        else:
            assert name in SPECIAL_NAMES


def test_there_are_36_special_names_and_return_backspace_tab_are_capitalised():
    assert len(SPECIAL_NAMES) == 36
    assert (name_for("\n"), name_for("\b"), name_for("\t")) == ("Return", "BackSpace", "Tab")
    assert name_for("'") == "quoteright" and name_for("`") == "quoteleft"


@pytest.mark.parametrize(
    "name, char", [("tab", "\t"), ("return", "\n"), ("quotedl", '"'), ("quotedble", '"'), (" ", " "), ("?", "?")]
)
def test_reader_accepts_the_lenient_variants(name, char):
    assert char_for(name) == char


def test_lenient_aliases_are_never_written():
    written = {name_for(c) for c in string.printable if c not in "\r\x0b\x0c"}
    assert not written & set(LENIENT_NAMES)


@pytest.mark.parametrize("name", ["", "RETURN", "Space", "foo", "spaces", "\x00", "é"])
def test_unknown_or_empty_names_decode_to_none(name):
    assert char_for(name) is None


def test_names_are_case_sensitive():
    assert char_for("a") == "a" and char_for("A") == "A"
    assert char_for("Period") is None


def test_text_becomes_canonical_names_with_typography_folded():
    assert names_for_text("Hi, it’s 5.\n") == [
        "H",
        "i",
        "comma",
        "space",
        "i",
        "t",
        "quoteright",
        "s",
        "space",
        "5",
        "period",
        "Return",
    ]
    assert to_ascii("café — ok…") == "cafe - ok..."
    with pytest.raises(ValueError):
        name_for("é")
