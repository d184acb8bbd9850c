"""``loebner schedule --format F [--entries N] [--seed S] [--json]``: the round schedule, as one JSON
object per meeting and line ({"round", "judge", "entry", "confederate", "left"}), or readable tables
(the Latin square, then each round's meetings and who is excused)."""

import json

from django.core.management.base import CommandError

from tournaments.loebner.rules.formats import FORMATS, Format, format_get
from tournaments.loebner.rules.schedule import Meeting, excused, labels, latin_square, schedule_build


def add_format_arguments(parser) -> None:
    parser.add_argument("--format", required=True, choices=FORMATS, dest="format_name")
    parser.add_argument("--entries", type=int, help="number of entries (formats generic and compact)")


def format_from(options) -> Format:
    try:
        return format_get(options["format_name"], entries=options.get("entries"))
    except ValueError as exc:
        raise CommandError(str(exc)) from exc


def add_arguments(parser) -> None:
    add_format_arguments(parser)
    parser.add_argument("--seed", type=int, help="seed for left/right (same seed, same sides)")
    parser.add_argument("--json", action="store_true", help="one JSON object per meeting and line")


def table(fmt: Format, meetings: list[Meeting]) -> str:
    entries = labels("E", fmt.entries)
    square = latin_square(meetings)
    lines = [
        f"{fmt.name}: {fmt.judges} judges, {fmt.entries} entries, {fmt.confederates} confederates, "
        f"{fmt.rounds} rounds, {fmt.mode}; round {fmt.slot_minutes:g} min = talk {fmt.talk_minutes:g}"
        f" + review {fmt.review_minutes:g} + break {fmt.break_minutes:g}",
        "",
        "     " + " ".join(f"{e:>4}" for e in entries),
    ]
    for judge in labels("J", fmt.judges):
        lines.append(f"{judge:<4} " + " ".join(f"{square.get(judge, {}).get(e, '-'):>4}" for e in entries))
    lines += ["", "Round  Participating (left side in brackets)      Excused"]
    out = excused(fmt, meetings)
    for r in range(1, fmt.rounds + 1):
        cells = " ".join(f"{m.judge}{m.entry}{m.confederate}[{m.left[0].upper()}]" for m in meetings if m.round == r)
        lines.append(f"{r:<6} {cells:<44} {' '.join(out[r]) or '-'}")
    return "\n".join(lines)


def handle(command, options) -> None:
    fmt = format_from(options)
    meetings = schedule_build(fmt, seed=options.get("seed"))
    if options.get("json"):
        for m in meetings:
            command.stdout.write(
                json.dumps(
                    {"round": m.round, "judge": m.judge, "entry": m.entry, "confederate": m.confederate, "left": m.left}
                )
            )
    else:
        command.stdout.write(table(fmt, meetings))
