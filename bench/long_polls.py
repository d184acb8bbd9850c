"""Pull mode's long polls under load: many entrants' programs wait at once on
``GET /api/v1/entries/<id>/pending/?wait=W`` with nothing to answer, through daphne and PostgreSQL.

    .venv/bin/python -m bench.long_polls [--polls 200] [--wait 10] [--rounds 2]

Services mode (bench/harness.py: a throwaway database, a private key prefix, daphne as a child process).
Each of --polls pull entries has its own API key; all polls start together, --rounds times over.
Measured: how long each poll took beyond its wait (the overrun: a poll with nothing pending should answer
after W seconds, not later), and daphne's CPU. Beside it, the same run's single poll alone (the
baseline). Target (printed, not enforced): p90 overrun <= 1 s. The last line is one JSON object.
"""

import argparse
import asyncio
import sys
import time

from bench import harness, results
from bench.harness import summary

log = harness.logger("long_polls")
TARGET_OVERRUN_MS = 1000.0


def create_entries(n: int) -> list[tuple[int, str]]:
    """n pull entries, each of its own entrant with an API key: (entry id, key)."""
    from django.contrib.auth import get_user_model

    from arena.models import Entry
    from arena.services.apikeys import apikey_create

    made = []
    for i in range(n):
        owner = get_user_model().objects.create_user(username=f"bench-entrant-{i}", password="unused-password-1")
        entry = Entry.objects.create(owner=owner, display_name=f"pull {i}", engine="pull", settings={})
        made.append((entry.pk, apikey_create(user=owner, name=f"key {i}").key))
    return made


async def polls(base: str, entries: list[tuple[int, str]], wait_s: float) -> list[float]:
    """Every entry polls once, all at once: each poll's overrun in seconds (its duration minus the wait)."""
    import httpx

    limits = httpx.Limits(max_connections=len(entries) + 1, max_keepalive_connections=len(entries) + 1)
    async with httpx.AsyncClient(base_url=base, timeout=wait_s * 10 + 30, limits=limits) as client:

        async def one(entry_id: int, key: str) -> float:
            started = time.perf_counter()
            answer = await client.get(
                f"/api/v1/entries/{entry_id}/pending/",
                params={"wait": wait_s},
                headers={"Authorization": f"Token {key}"},
            )
            if answer.status_code != 200:
                raise harness.BenchError(f"poll answered {answer.status_code}: {answer.text[:200]}")
            return time.perf_counter() - started - wait_s

        return await asyncio.gather(*(one(entry_id, key) for entry_id, key in entries))


def run(args) -> dict:
    import os

    os.environ["ARENA_API_RATE_PER_ADDRESS"] = str(args.polls * (args.rounds + 2) * 4)
    os.environ["ARENA_API_RATE_PER_TOKEN"] = "1000"
    with harness.Services("long_polls", port=args.port) as services:
        entries = create_entries(args.polls)
        base = services.start_daphne().replace("ws://", "http://")
        alone = asyncio.run(polls(base, entries[:1], args.wait))
        cpu_before, started = services.daphne_cpu_s(), time.perf_counter()
        overruns: list[float] = []
        for round_ in range(args.rounds):
            overruns += asyncio.run(polls(base, entries, args.wait))
            log(f"round {round_ + 1}: {harness.fmt(summary(overruns[-args.polls :]))}")
        wall = time.perf_counter() - started
        cpu = (services.daphne_cpu_s() or 0) - (cpu_before or 0)
    s, b = summary(overruns), summary(alone)
    print(f"overrun beyond the wait, {args.polls} polls at once: {harness.fmt(s)}")
    print(f"  baseline, one poll alone: {b['p50']:.0f} ms; daphne {cpu / wall:.2f} cores")
    print(f"  target p90 <= {TARGET_OVERRUN_MS:.0f} ms: {'met' if s['p90'] <= TARGET_OVERRUN_MS else 'not met'}")
    return {
        "polls": args.polls,
        "wait_s": args.wait,
        "rounds": args.rounds,
        "p50_overrun_ms": round(s["p50"], 1),
        "p90_overrun_ms": round(s["p90"], 1),
        "max_overrun_ms": round(s["max"], 1),
        "baseline_overrun_ms": round(b["p50"], 1),
        "daphne_cores": round(cpu / wall, 3),
        "target_met": s["p90"] <= TARGET_OVERRUN_MS,
    }


def parse_args(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.long_polls", description=__doc__.split("\n")[0])
    parser.add_argument("--polls", type=int, default=200)
    parser.add_argument("--wait", type=float, default=10.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = results.add_options(parser).parse_args(argv)
    if args.polls < 1 or args.wait <= 0 or args.rounds < 1:
        parser.error("--polls >= 1, --wait > 0, --rounds >= 1")
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    if args.serve:
        harness.serve(args.port)
        return 0
    return harness.main("long_polls", lambda: run(args), args, argv)


if __name__ == "__main__":
    sys.exit(main())
