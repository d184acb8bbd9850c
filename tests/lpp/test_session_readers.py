"""The pure readers of whole-line sources (no database): telling the formats apart, the text transcript's
speakers and sections, the round log's partners."""

import pytest

from lpp.protocol.round_log import parse_round_log, round_of
from lpp.protocol.sessions import UnreadableInput, detect
from lpp.protocol.text_transcript import parse_text, role_of
from tests.data_files import LOEBNER2012, LPP2_ROUNDS, TRANSCRIPTS


def test_each_source_is_told_apart_by_its_content():
    assert detect((LOEBNER2012 / "logfile.m_allan_linguo.2012-05-15--13-47-26.log").read_bytes()) == "jcomm"
    assert detect((LPP2_ROUNDS / "Round0").read_bytes()) == "lpp2"
    assert detect((TRANSCRIPTS / "published.txt").read_bytes()) == "text"
    with pytest.raises(UnreadableInput, match="a binary file"):
        detect(b"abc\x00def")


def test_speakers_name_the_judge_and_the_partners_nature():
    assert [role_of(s) for s in ("Judge", "judge 3", "J2", "Interrogator")] == ["judge"] * 4
    assert [role_of(s) for s in ("Human", "Confederate", "C2", "conf1")] == ["human"] * 4
    assert [role_of(s) for s in ("Entry", "Program", "E4", "ai0", "Bot")] == ["program"] * 5
    assert role_of("Rose") == ""


def test_a_judge_who_speaks_first_shares_the_conversation_of_the_partner_who_answers():
    [session] = parse_text("Judge: hi\nRose: hello\nJudge: how are you?\nRose: well\n")
    [party] = session.parties
    assert party.name == "Rose" and party.role == "" and len(party.lines) == 4


def test_the_replays_sections_give_sides_and_roles():
    text = "== Contest (judge 4, round 2, left human) ==\n-- left (human) --\njudge: a\nhuman: b\n"
    text += "-- right (program) --\njudge: c\nbot9: d\n"
    [session] = parse_text(text)
    assert (session.title, session.judge, session.round) == ("Contest", "4", "2")
    assert [(p.name, p.role, p.side) for p in session.parties] == [
        ("human", "human", "left"),
        ("bot9", "program", "right"),
    ]


def test_a_round_log_counts_rounds_from_one_and_reports_strange_partners():
    assert round_of("Round0") == "1" and round_of("Round3") == "4" and round_of("log.txt") == ""
    [session] = parse_round_log('{"id":"judge0","to":"robot","content":"hi"}\nnot json\n', "Round2")
    assert session.round == "3" and session.parties[0].role == ""
    assert session.problems == [
        "line 2: not a JSON map",
        "robot is neither a confederate nor an entry: recorded as a program",
    ]


def test_without_sections_a_judges_line_goes_to_the_partner_who_spoke_last():
    [session] = parse_text("Judge: hi both\nHuman: hi\nJudge: and you?\nEntry: hello\nJudge: why?\nHuman: no\n")
    human, entry = session.parties
    assert [line.text for line in human.lines] == ["hi both", "hi", "and you?", "no"]
    assert [line.text for line in entry.lines] == ["hello", "why?"]
