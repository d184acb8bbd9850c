"""The one CSV writer: what a spreadsheet opening any of the platform's CSVs shows for hostile text."""

import csv
import io

import pytest

from core import csvsafe

HOSTILE = ["=1+1+cmd|' /C calc'!A0", '=HYPERLINK("http://evil.example","click")', "@SUM(1+1)"]


def read(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))


@pytest.mark.parametrize("value", [*HOSTILE, "+1+1", "-2+3", "\t=1", "\r=1"])
def test_text_a_spreadsheet_would_run_gets_an_apostrophe_in_every_writer(value):
    assert read(csvsafe.csv_text(["text"], [[value]]))[1] == ["'" + value]
    out = io.StringIO()
    writer = csvsafe.DictWriter(out, fieldnames=["text"])
    writer.writeheader()
    writer.writerow({"text": value})
    assert read(out.getvalue())[1] == ["'" + value]


def test_plain_text_numbers_and_empty_cells_are_written_as_they_are():
    rows = [["a plain reason", -2.5, 0, None, "1=1", "it's fine"]]
    assert read(csvsafe.csv_text(["t", "n", "z", "e", "mid", "q"], rows))[1] == [
        "a plain reason",
        "-2.5",
        "0",
        "",
        "1=1",
        "it's fine",
    ]


def test_a_carriage_return_inside_a_cell_starts_no_row_a_spreadsheet_would_run():
    text = csvsafe.csv_text(["reason", "n"], [["fine\r=1+1+cmd|' /C calc'!A0", 1]])
    assert read(text) == [["reason", "n"], ["fine\r=1+1+cmd|' /C calc'!A0", "1"]]
