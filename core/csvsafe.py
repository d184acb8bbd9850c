"""Every CSV the platform writes goes through here: a cell a spreadsheet would run as a formula (text
starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return) is written with an apostrophe in
front, which spreadsheets show as text and do not run. Verdict reasons, messages, exit answers and
entrants' names are typed by people, so any of them may be hostile. Numbers are written as they are (a
negative number stays a number); JSON exports are never touched and keep every text as it was typed.

Rows end with CRLF (RFC 4180): Python's writer quotes a cell only for the characters of its line end, so
with a bare LF a cell holding a carriage return would go out unquoted and a spreadsheet would start a
new row inside it (whose first cell, ``=…``, would then run)."""

import csv
import io
from collections.abc import Iterable

DANGEROUS = ("=", "+", "-", "@", "\t", "\r")
LINE_END = "\r\n"


def cell(value):
    """The value as it may go into a CSV cell: dangerous text prefixed with ``'``, None as empty."""
    if isinstance(value, str) and value.startswith(DANGEROUS):
        return "'" + value
    return "" if value is None else value


class Writer:
    """``csv.writer`` over ``out`` whose rows go through :func:`cell`."""

    def __init__(self, out):
        self._writer = csv.writer(out, lineterminator=LINE_END)

    def writerow(self, row: Iterable):
        return self._writer.writerow([cell(v) for v in row])

    def writerows(self, rows: Iterable[Iterable]):
        for row in rows:
            self.writerow(row)


class DictWriter:
    """``csv.DictWriter`` over ``out`` whose values go through :func:`cell` (the header is the code's own
    field names)."""

    def __init__(self, out, fieldnames, *, extrasaction: str = "raise"):
        self._writer = csv.DictWriter(out, fieldnames=fieldnames, extrasaction=extrasaction, lineterminator=LINE_END)

    def writeheader(self):
        return self._writer.writeheader()

    def writerow(self, row: dict):
        return self._writer.writerow({key: cell(value) for key, value in row.items()})

    def writerows(self, rows: Iterable[dict]):
        for row in rows:
            self.writerow(row)


def csv_text(header: list[str], rows) -> str:
    """A whole table as CSV text: the header, then each row of values."""
    out = io.StringIO()
    writer = Writer(out)
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()
