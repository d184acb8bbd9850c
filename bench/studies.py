"""Online studies under load: simulated players arrive at /play/'s lobby at a given rate, are paired
(two-party games, a human witness each), and chat at one message per second per side.

    .venv/bin/python -m bench.studies [--rate 4] [--players 200] [--messages 120] [--pause-ms 500]

Services mode (PostgreSQL and Redis, as bench/harness.py sets up: a throwaway database, a private key
prefix, daphne as a child process). Each player holds a session whose participant has consented and
answered, opens the lobby's websocket, sends `join`, and follows the game it is given to the study's
judge or witness console (studies.consumers, on the arena's consoles): the interrogator writes, the
witness answers, strictly in turn, each pausing --pause-ms after a delivery (about one message per
second per side), --messages each: 120 by default, a two-minute game as Human or Not plays them
(turingtest.live's last five). Games per core is a steady-state figure: a game's fixed cost (the
lobby, two consoles' connects and states: about 100 ms of daphne's CPU) is spread over its length, so
ten-second games (--messages 10) report about a third as many.
Measured: message delivery (send -> the other player's socket), the lobby wait once a partner is there
(the second player's join -> both players told of their game: the study's drawn wait, fixed here at
STUDY_WAIT_S, plus the platform's own delay), the games running at once, daphne's CPU,
and the benchmark's own event-loop lag (its players share one process); games per core = games at once /
daphne's cores used (CPU seconds / wall seconds). Beside them, the chat benchmark's bare channel-layer round trip
(harness.baseline_phase) at the same concurrency and pacing, in the same run. Targets (printed, not
enforced): p99 delivery <= 100 ms and p99 lobby wait <= STUDY_WAIT_S + 1 s, at >= 100 concurrent games per
core.
The last line is one JSON object.
"""

import argparse
import asyncio
import json
import random
import sys
import time

from bench import harness, results
from bench.harness import BenchError, fmt, summary

log = harness.logger("studies")
STUDY_WAIT_S = 1.0  # every game starts this long after the later player's join (min_wait_s = human_wait_s)
DELIVERY_TARGET_MS, WAIT_TARGET_MS, GAMES_PER_CORE_TARGET = 100.0, 1000.0 * (STUDY_WAIT_S + 1), 100.0


def create_players(n: int) -> tuple[int, list[str]]:
    """An open two-party study (every game with a human witness) and n players ready for the lobby:
    (the study's id, each player's session cookie)."""
    from django.contrib.sessions.backends.db import SessionStore

    from studies import services
    from studies.models import Study
    from studies.selectors import SESSION_KEY

    config = {
        "format": "two-party",
        "minutes": 60,
        "seed": 1,
        "human_witness_share": 1.0,
        "games_per_participant": 1,
        "min_wait_s": STUDY_WAIT_S,
        "human_wait_s": STUDY_WAIT_S,
        "witnesses": [{"name": "unused", "engine": "simple", "settings": {}}],
    }
    study = services.study_load(config=config, slug="bench", status=Study.Status.OPEN)
    cookies = []
    for _ in range(n):
        person = services.participant_create(study=study)
        services.consent_give(participant=person, agreed=True)
        services.survey_submit(participant=person, phase="demographics", answers={})
        session = SessionStore()
        session[SESSION_KEY] = {str(study.pk): person.pk}
        session.create()
        cookies.append(session.session_key)
    return study.pk, cookies


class Player:
    def __init__(self, ws, name):
        self.ws, self.name, self.inbox = ws, name, asyncio.Queue()
        self.reader = asyncio.create_task(self._read())

    async def _read(self):
        try:
            async for raw in self.ws:
                self.inbox.put_nowait((time.perf_counter(), json.loads(raw)))
        except Exception:
            pass

    async def expect(self, test, timeout):
        end = time.perf_counter() + timeout
        while True:
            at, payload = await asyncio.wait_for(self.inbox.get(), max(0.01, end - time.perf_counter()))
            if payload.get("type") == "error":
                raise BenchError(f"{self.name}: {payload}")
            if test(payload):
                return at, payload

    async def close(self):
        await self.ws.close()
        self.reader.cancel()


async def play(args, base: str, study_id: int, cookies: list[str], cpu_s) -> dict:
    delivery, waits, errors = [], [], []
    running = {"now": 0, "peak": 0, "samples": []}
    pending: dict[str, tuple] = {}  # game url -> (first player's arrival of the game, ...)
    started_games = 0
    lost = 0

    async def lobby(i: int, cookie: str) -> tuple[Player, dict, float]:
        ws = await harness.open_websocket(base, f"/ws/play/{study_id}/lobby/", cookie, f"player-{i}", greeted=False)
        player = Player(ws, f"player-{i}")
        await player.expect(lambda p: p.get("type") == "state", 30)
        sent = time.perf_counter()
        await ws.send(json.dumps({"type": "join"}))
        at, state = await player.expect(lambda p: p.get("type") in ("state", "matched") and p.get("game"), 1e9)
        return player, state["game"], sent, at

    async def game(first_cookie: str, second_cookie: str, game_url: str, role_first: str):
        nonlocal lost, started_games
        judge_cookie, witness_cookie = (
            (first_cookie, second_cookie) if role_first == "interrogator" else (second_cookie, first_cookie)
        )
        uuid = game_url.rstrip("/").rsplit("/", 1)[1]
        judge = Player(
            await harness.open_websocket(base, f"/ws/play/judge/{uuid}/", judge_cookie, "judge", greeted=False), "judge"
        )
        witness = Player(
            await harness.open_websocket(base, f"/ws/play/witness/{uuid}/", witness_cookie, "witness", greeted=False),
            "witness",
        )
        await judge.expect(lambda p: p.get("type") == "state", 30)
        await witness.expect(lambda p: p.get("type") == "state", 30)
        started_games += 1
        running["now"] += 1
        running["peak"] = max(running["peak"], running["now"])
        try:
            for k in range(2 * args.messages):
                text = f"game {uuid[:8]} message {k}: are you human?"
                if k % 2 == 0:
                    sender, receiver, frame = judge, witness, {"type": "message", "side": "sole", "text": text}
                else:
                    sender, receiver, frame = witness, judge, {"type": "message", "text": text}

                def arrived(p, role="judge" if sender is judge else "witness", text=text):
                    return p.get("type") == "message" and p.get("from") == role and p["text"] == text

                sent = time.perf_counter()
                await sender.ws.send(json.dumps(frame))
                try:
                    at, _ = await receiver.expect(arrived, args.timeout)
                    delivery.append(at - sent)
                except TimeoutError:
                    lost += 1
                await asyncio.sleep(args.pause_ms / 1000 * random.uniform(0.8, 1.2))
        finally:
            running["now"] -= 1
            await judge.close()
            await witness.close()

    async def arrive(i: int, cookie: str, tasks: list):
        try:
            player, game_info, sent, at = await lobby(i, cookie)
        except Exception as exc:
            errors.append(f"player-{i}: {exc!r}")
            return
        await player.close()
        url = game_info["url"]
        if url in pending:
            other, other_sent, other_at, other_role = pending.pop(url)
            partner_there = max(sent, other_sent)  # the later join: from then on a partner is there
            waits.append(max(at, other_at) - partner_there)
            tasks.append(asyncio.create_task(game(other, cookie, url, other_role)))
        else:
            pending[url] = (cookie, sent, at, game_info["role"])

    async def sampler():
        while True:
            await asyncio.sleep(1)
            running["samples"].append(running["now"])
            log(f"{started_games} games started, {running['now']} running, {len(delivery)} messages, {lost} lost")

    lags: list[float] = []

    async def lag_probe():  # the benchmark's own event loop: how late a 10 ms sleep wakes up
        while True:
            started = time.perf_counter()
            await asyncio.sleep(0.01)
            lags.append(time.perf_counter() - started - 0.01)

    tasks: list = []
    arrivals = []
    sampling = asyncio.create_task(sampler())
    probing = asyncio.create_task(lag_probe())
    own_cpu = time.process_time()
    cpu_started, wall_started = cpu_s(), time.perf_counter()
    for i, cookie in enumerate(cookies):
        arrivals.append(asyncio.create_task(arrive(i, cookie, tasks)))
        await asyncio.sleep(random.expovariate(args.rate))
    await asyncio.gather(*arrivals)
    await asyncio.gather(*tasks, return_exceptions=True)
    wall, cpu_ended = time.perf_counter() - wall_started, cpu_s()
    sampling.cancel()
    probing.cancel()
    busy = [n for n in running["samples"] if n > 0]
    return {
        "delivery": delivery,
        "waits": waits,
        "lost": lost,
        "errors": errors,
        "games": started_games,
        "peak_games": running["peak"],
        "mean_games": sum(busy) / len(busy) if busy else 0.0,
        "daphne_cpu_s": (cpu_ended - cpu_started) if cpu_started is not None and cpu_ended is not None else None,
        "wall_s": wall,
        "client_cpu_s": time.process_time() - own_cpu,
        "client_lag": lags,
    }


def run(args) -> dict:
    with harness.Services("studies", port=args.port) as services:
        study_id, cookies = create_players(args.players)
        base = services.start_daphne()

        async def measure():
            figures = await play(args, base, study_id, cookies, services.daphne_cpu_s)
            concurrency = max(1, round(figures["mean_games"]))
            log(f"baseline: bare channel-layer round trips, {concurrency} pairs")
            figures["baseline"] = await harness.baseline_phase(
                concurrency,
                2 * args.messages,
                lambda: args.pause_ms / 1000 * random.uniform(0.8, 1.2),
                args.pause_ms / 1000,
                args.timeout,
            )
            await harness.close_layer_pools()
            return figures

        try:
            figures = asyncio.run(asyncio.wait_for(measure(), args.time_limit))
        except TimeoutError:
            raise BenchError(f"the run passed --time-limit {args.time_limit:.0f} s") from None
    if not figures["delivery"]:
        raise BenchError(f"no message was delivered: {figures['errors'][:3]}")
    d, w, b = summary(figures["delivery"]), summary(figures["waits"] or [0.0]), summary(figures["baseline"]["latency"])
    cores = figures["daphne_cpu_s"] / figures["wall_s"] if figures["daphne_cpu_s"] else None
    per_core = figures["mean_games"] / cores if cores else None
    # games at once per core grows when games drag on (slow delivery keeps more of them open): daphne's CPU
    # per game is the figure that says what a game costs, whatever its pace
    per_game_ms = (
        figures["daphne_cpu_s"] * 1000 / figures["games"] if figures["daphne_cpu_s"] and figures["games"] else None
    )
    print(
        f"studies: {figures['games']} games ({args.players} players arriving at {args.rate}/s), "
        f"{figures['mean_games']:.1f} at once on average (peak {figures['peak_games']})"
    )
    print(f"  delivery {fmt(d)}")
    print(f"  lobby wait once a partner is there {fmt(w)}")
    print(f"  bare channel-layer round trip (same run) {fmt(b)}")
    lag = summary(figures["client_lag"] or [0.0])
    print(
        f"  the benchmark's own players (one process): {figures['client_cpu_s'] / figures['wall_s']:.2f} cores busy, "
        f"event-loop lag {fmt(lag)} (a late player's loop adds to the delivery it measures)"
    )
    print(
        f"  daphne {cores or 0:.2f} cores busy -> {per_core or 0:.0f} concurrent games per core "
        f"(target >= {GAMES_PER_CORE_TARGET:.0f} with p99 delivery <= {DELIVERY_TARGET_MS:.0f} ms, "
        f"p99 wait <= {WAIT_TARGET_MS:.0f} ms)"
    )
    print(f"  daphne CPU per game {per_game_ms or 0:.0f} ms (lobby, consoles and messages; the load barely moves it)")
    return {
        "games": figures["games"],
        "players": args.players,
        "rate_per_s": args.rate,
        "mean_concurrent_games": round(figures["mean_games"], 2),
        "peak_concurrent_games": figures["peak_games"],
        "p50_ms": d["p50"],
        "p99_ms": d["p99"],
        "lobby_wait_p99_ms": w["p99"],
        "baseline_p99_ms": b["p99"],
        "client_cores": round(figures["client_cpu_s"] / figures["wall_s"], 3),
        "client_lag_p99_ms": lag["p99"],
        "daphne_cores": round(cores, 3) if cores else None,
        "games_per_core": round(per_core, 1) if per_core else None,
        "daphne_cpu_ms_per_game": round(per_game_ms, 1) if per_game_ms else None,
        "messages": len(figures["delivery"]),
        "lost": figures["lost"],
        "errors": len(figures["errors"]),
        "delivery_target_met": d["p99"] <= DELIVERY_TARGET_MS,
        "wait_target_met": w["p99"] <= WAIT_TARGET_MS,
    }


def parse_args(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.studies", description=__doc__.split("\n")[0])
    parser.add_argument("--rate", type=float, default=4.0, help="players arriving per second")
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument(
        "--messages",
        type=int,
        default=120,
        help="messages per side and game (default 120: a two-minute game at one a second a side)",
    )
    parser.add_argument("--pause-ms", type=float, default=500.0)
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument("--time-limit", type=float, default=600.0)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = results.add_options(parser).parse_args(argv)
    if args.players < 2 or args.players % 2 or args.rate <= 0 or args.messages < 1:
        parser.error("--players must be an even number >= 2, --rate > 0, --messages >= 1")
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    if args.serve:
        harness.serve(args.port)
        return 0
    return harness.main("studies", lambda: run(args), args, argv)


if __name__ == "__main__":
    sys.exit(main())
