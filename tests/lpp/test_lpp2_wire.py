"""LPP2 on the wire (lpp.protocol.lpp2, no Django): names, the reference's strings, bounded parsing."""

import pytest

from lpp.protocol import lpp2 as wire


def test_names_map_onto_the_loebner_labels():
    assert [
        wire.name_for(kind, label) for kind, label in (("judge", "J1"), ("entry", "E4"), ("confederate", "C2"))
    ] == [
        "judge0",
        "ai3",
        "conf1",
    ]
    assert [wire.label_for(n) for n in ("judge0", "ai3", "conf1", "CONTROLLER", "judge")] == [
        "J1",
        "E4",
        "C2",
        None,
        None,
    ]
    assert [wire.role_of(n) for n in ("judge2", "ai0", "conf3", "CONTROLLER", "webcast", "hacker")] == [
        "judge",
        "ai",
        "conf",
        "CONTROLLER",
        "webcast",
        "",
    ]


def test_the_reference_strings_byte_for_byte():
    assert wire.round_information(-1, "Finished", {}) == '{"roundNumber":-1, "status":"Finished", "partners":{}}'
    assert (
        wire.new_round({"judge0": ["conf0", "ai0"]}) == '{"status":"newRound","partners": {"judge0":["conf0","ai0"]}}'
    )
    assert wire.control("endRound") == '{"status":"endRound"}'
    assert wire.dumps({"content": "ça"}) == '{"content":"ça"}'


@pytest.mark.parametrize(
    "data, why",
    [
        ("[1]", "JSON map"),
        ("{bad", "not JSON"),
        ('{"id":"judge0"}', "secret must be"),
        ("x" * 20_001, "longer than"),
        (b"\xff", "not UTF-8"),
        ('{"id":"", "secret":"s"}', "id must be"),
    ],
)
def test_payloads_are_bounded_and_refusals_say_why(data, why):
    with pytest.raises(wire.PayloadError, match=why):
        wire.parse(data)


def test_a_map_already_decoded_is_accepted_and_keeps_its_order():
    assert list(wire.parse({"id": "ai0", "secret": "s", "to": "judge0", "content": "hi"})) == [
        "id",
        "secret",
        "to",
        "content",
    ]


def test_final_scores_as_the_judge_page_sends_them():
    assert wire.final_scores({"finalScores": ["3", "4", "1", "2"]}, 4) == [3, 4, 1, 2]
    for bad in (["1", "1", "2", "3"], ["0", "1", "2", "3"], ["1", "2", "3"], [True, "2", "3", "4"], "1234"):
        with pytest.raises(wire.PayloadError):
            wire.final_scores({"finalScores": bad}, 4)
