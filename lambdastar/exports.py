"""CSV and JSON Lines writers over row iterators (streamed: memory flat in the number of rows)."""

import io
import json
from collections.abc import Iterable, Iterator

from core import csvsafe


def csv_lines(rows: Iterable[dict], fields: list[str]) -> Iterator[str]:
    buffer = io.StringIO()
    writer = csvsafe.DictWriter(buffer, fieldnames=fields, extrasaction="ignore")
    writer.writeheader()
    for row in rows:
        writer.writerow(row)
        if buffer.tell() > 64 * 1024:
            yield buffer.getvalue()
            buffer.seek(0)
            buffer.truncate()
    yield buffer.getvalue()


def jsonl_lines(rows: Iterable[dict]) -> Iterator[str]:
    for row in rows:
        yield json.dumps(row, separators=(",", ":")) + "\n"
