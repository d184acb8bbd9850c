"""``loebner score --format F [--entries N] [--ranking R] FILE.json``: scores a final's judgments.

FILE.json: {"judgments": [{"round", "judge", "entry", "confederate", "human": "entry"|"confederate"}] (a "left"
key, as the schedule prints it, is allowed and ignored),
"ranks": {"J1": {"E1": 4, ...}, ...}} (ranks as the format's ranking asks). Prints the results JSON;
bad input is refused with the file's line and the place (e.g. "line 7, judgments[3].judge: ...")."""

import json
import re
from pathlib import Path

from django.core.management.base import CommandError

from tournaments.loebner.rules.formats import RANKINGS, format_get
from tournaments.loebner.rules.schedule import schedule_build
from tournaments.loebner.rules.scoring import Judgment, ScoringError, contest_score

from ._schedule import add_format_arguments, format_from

MAX_BYTES = 2_000_000
FIELDS = ("round", "judge", "entry", "confederate", "human")
OPTIONAL = ("left",)  # as `loebner schedule --json` prints it; the side does not change the score


class _Located(dict):
    """A JSON object that remembers the line it starts on."""

    line = 0


def _load(text: str):
    """json.loads, keeping each object's line (the pure-Python scanner with a recording hook)."""
    decoder = json.JSONDecoder(object_pairs_hook=_Located)
    inner = decoder.parse_object

    def parse_object(s_and_end, *rest):
        s, end = s_and_end
        obj, new_end = inner(s_and_end, *rest)
        obj.line = s.count("\n", 0, end) + 1
        return obj, new_end

    decoder.parse_object = parse_object
    decoder.scan_once = json.scanner.py_make_scanner(decoder)
    return decoder.decode(text)


def add_arguments(parser) -> None:
    add_format_arguments(parser)
    parser.add_argument(
        "--ranking",
        choices=[r for r in RANKINGS if r],
        help="override the format's ranking (e.g. aisb --ranking points for 2017-2018)",
    )
    parser.add_argument("--no-ranking", action="store_true", help="score without ranks")
    parser.add_argument("file", help="the judgments as JSON")


def _line_of(data, where: str) -> int:
    if m := re.match(r"judgments\[(\d+)\]", where):
        items = data.get("judgments") or []
        k = int(m.group(1))
        return getattr(items[k], "line", 0) if k < len(items) else 0
    if m := re.match(r"ranks\.([^.]+)", where):
        return getattr((data.get("ranks") or {}).get(m.group(1)), "line", 0)
    return getattr(data.get(where.split(".")[0]), "line", 0) or getattr(data, "line", 0)


def _judgments(data) -> list[Judgment]:
    items = data.get("judgments")
    if not isinstance(items, list):
        raise ScoringError("judgments", "must be a list of judgments")
    out = []
    for k, item in enumerate(items):
        if not isinstance(item, dict):
            raise ScoringError(f"judgments[{k}]", "must be an object")
        missing = [f for f in FIELDS if f not in item]
        extra = sorted(set(item) - set(FIELDS) - set(OPTIONAL))
        if missing or extra:
            raise ScoringError(
                f"judgments[{k}]",
                f"missing {', '.join(missing) or '-'}; unknown {', '.join(extra) or '-'} (fields: {', '.join(FIELDS)})",
            )
        out.append(Judgment(**{f: item[f] for f in FIELDS}))
    return out


def handle(command, options) -> None:
    fmt = format_from(options)
    if options.get("ranking") or options.get("no_ranking"):
        fmt = format_get(
            fmt.name, entries=options.get("entries"), ranking=None if options.get("no_ranking") else options["ranking"]
        )
    path = Path(options["file"])
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise CommandError(f"{path}: {exc.strerror or exc}") from exc
    if len(raw) > MAX_BYTES:
        raise CommandError(f"{path}: {len(raw)} bytes, more than {MAX_BYTES}")
    try:
        data = _load(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise CommandError(f"{path}: not UTF-8 ({exc.reason} at byte {exc.start})") from exc
    except json.JSONDecodeError as exc:
        raise CommandError(f"{path}: line {exc.lineno}, column {exc.colno}: {exc.msg}") from exc
    except RecursionError as exc:
        raise CommandError(f"{path}: nested too deeply") from exc
    if not isinstance(data, dict):
        raise CommandError(f'{path}: line 1: must be an object with "judgments" (and "ranks")')
    try:
        unknown = sorted(set(data) - {"judgments", "ranks"})
        if unknown:
            raise ScoringError(unknown[0], 'unknown key (the file has "judgments" and "ranks")')
        result = contest_score(fmt, schedule_build(fmt, seed=0), _judgments(data), data.get("ranks"))
    except ScoringError as exc:
        line = _line_of(data, exc.where)
        raise CommandError(f"{path}: {f'line {line}, ' if line else ''}{exc}") from exc
    command.stdout.write(json.dumps(result, indent=2))
