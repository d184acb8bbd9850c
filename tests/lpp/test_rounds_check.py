"""Round numbers that contradict the day's schedule, flagged in the import report (docs/reference/protocols.md)."""

import pytest
from django.core.management import call_command

from lpp.models import ImportedTranscript
from lpp.protocol.rounds import round_contradictions


def test_a_round_out_of_time_order_is_flagged_naming_its_slot():
    # 2012: d_burke_adam's file says round 2 but sits in the round-4 slot
    sessions = [
        ("a", "1", 0),
        ("b", "2", 3600),
        ("c", "3", 7200),
        ("d_burke_adam", "2", 10800),
        ("e", "4", 10900),
        ("blank", "", 10950),
        ("untimed", "1", None),
    ]
    flagged = round_contradictions(sessions)
    assert list(flagged) == ["d_burke_adam"]
    assert (
        "round 2 contradicts the schedule" in flagged["d_burke_adam"] and "in round 4's slot" in flagged["d_burke_adam"]
    )
    assert round_contradictions([("a", "1", 0), ("b", "1", 60), ("c", "2", 3600)]) == {}


@pytest.mark.slow
def test_the_import_report_flags_a_round_2_file_among_the_shared_logs_round_4(data_dir, db, capsys, tmp_path):
    """The shared 2012 logs agree with the day (rounds 1, 1, 2, 2, 3, 4; the blank-judge test names no
    round); a d_burke_adam-like file saying round 2, started two minutes after the round-4 session, does not."""
    from tests.lpp.test_log_quirks import log_2012

    stray = tmp_path / "logfile.d_burke_adam.2012-05-15--15-05-00.log"
    keys = [f"J2 0{1337091650 + i:010d}0000000 judge left {c}" for i, c in enumerate("Hi")]
    stray.write_text(log_2012(*keys, round="2"), newline="")
    files = [*sorted(str(p) for p in data_dir.glob("*.log")), str(stray)]
    call_command("lpp_import", *files, verbosity=0)
    out = capsys.readouterr().out
    flagged = [line for line in out.splitlines() if "contradicts the schedule" in line]
    assert flagged == [
        "logfile.d_burke_adam.2012-05-15--15-05-00.log#0: round 2 contradicts the schedule: "
        "the session sits in round 4's slot"
    ]
    source = ImportedTranscript.objects.get(file_name=stray.name)
    assert "round 2 contradicts the schedule" in source.problems
    assert not any(
        "contradicts" in p for p in ImportedTranscript.objects.exclude(pk=source.pk).values_list("problems", flat=True)
    )
