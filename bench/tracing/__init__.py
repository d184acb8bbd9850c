"""Where a chat message's time goes inside daphne: time stamps along the platform's path, for
`bench.chat_latency --trace FILE` (and a CPU profile of every daphne thread, `--profile FILE`).

Both are installed in the daphne child by bench/asgi.py when the environment asks for them
(TRACE_ENV, PROFILE_ENV) and written when daphne exits. Nothing of the platform is edited: the
stamps wrap the module attributes the platform calls through (`services.message_post`, the
append's steps: `appends.*` on the atomic path, `appends_pg.TwoTripAppend.begin` (lock and last
link: "linked") and `.insert` (insert and commit: "inserted") on PostgreSQL's two-trip path,
`notify.message_stored` (called after the commit: "committed"), core.notify's `_send`, the
consumers' handlers), so a run without these switches runs exactly the platform's code.

Stamps are `time.perf_counter()` (CLOCK_MONOTONIC, one clock for every process of the machine), keyed
by the message's text (the benchmark's texts are unique), so the benchmark adds its own client-side
stamps and `stages()` prints the intervals between consecutive ones.
"""

from __future__ import annotations

import atexit
import collections
import cProfile
import functools
import json
import os
import threading
import time

TRACE_ENV = "ARENA_BENCH_TRACE"
PROFILE_ENV = "ARENA_BENCH_PROFILE"

# the order of a message's stamps along its path (client stamps come from the benchmark)
ORDER = (
    "client_sent",
    "frame",
    "post",
    "locked",
    "linked",
    "inserted",
    "committed",
    "queued",
    "post_done",
    "resumed",
    "sending",
    "sent",
    "deliver_witness",
    "deliver_judge",
    "socket_witness",
    "socket_judge",
    "client_arrived",
)

_stamps: dict[str, dict[str, float]] = {}
_lock = threading.Lock()


def stamp(text, name: str) -> None:
    if isinstance(text, str):
        now = time.perf_counter()
        with _lock:
            _stamps.setdefault(text, {}).setdefault(name, now)


def install_from_env() -> None:
    if os.environ.get(TRACE_ENV):
        install_trace(os.environ[TRACE_ENV])
    if os.environ.get(PROFILE_ENV):
        install_profile(os.environ[PROFILE_ENV])


# --- time stamps ------------------------------------------------------------------------------------
def _wrap_sync(owner, name: str, before: str | None, after: str | None, text_of):
    original = getattr(owner, name)

    @functools.wraps(original)
    def wrapper(*args, **kwargs):
        text = text_of(args, kwargs)
        if before:
            stamp(text, before)
        result = original(*args, **kwargs)
        if after:
            stamp(text if text is not None else text_of(args, kwargs), after)
        return result

    setattr(owner, name, wrapper)


def _wrap_async(owner, name: str, before: str | None, after: str | None, text_of):
    original = getattr(owner, name)

    @functools.wraps(original)
    async def wrapper(*args, **kwargs):
        text = text_of(args, kwargs)
        if before:
            stamp(text, before)
        result = await original(*args, **kwargs)
        if after:
            stamp(text, after)
        return result

    setattr(owner, name, wrapper)


_current = threading.local()  # the text of the message this database thread is storing


def install_trace(path: str) -> None:
    from arena import consumers, notify, services
    from arena.services import appends, appends_pg
    from core import consumers as core_consumers
    from core import notify as core_notify

    def post_text(args, kwargs):
        _current.text = kwargs.get("text")
        return _current.text

    def current(args, kwargs):
        return getattr(_current, "text", None)

    _wrap_sync(services, "message_post", "post", "post_done", post_text)
    for module in (appends, appends_pg):
        _wrap_sync(module, "message_append", None, "inserted", current)
    for name in ("message_stored", "message_stored_many"):
        if hasattr(notify, name):
            _wrap_sync(notify, name, "committed", "queued", lambda args, kwargs: args[0].text if args else None)

    def frame_text(args, kwargs):
        return args[1].get("text") if len(args) > 1 else None

    from studies import consumers as play_consumers  # the studies' consoles override on_message

    for consumer in (
        consumers.JudgeConsumer,
        consumers.WitnessConsumer,
        play_consumers.PlayJudgeConsumer,
        play_consumers.PlayWitnessConsumer,
    ):
        _wrap_async(consumer, "on_message", "frame", "resumed", frame_text)

    original_send = core_notify._send

    async def traced_send(layer, events):
        texts = [event.get("judge", {}).get("text") for _, event in events if event.get("type") == "arena.message"]
        for text in texts:
            stamp(text, "sending")
        await original_send(layer, events)
        for text in texts:
            stamp(text, "sent")

    core_notify._send = traced_send

    original_message = core_consumers.BaseConsumer.arena_message

    async def traced_message(self, event):
        text = (event.get(self.audience) or {}).get("text")
        stamp(text, f"deliver_{self.audience}")
        await original_message(self, event)
        stamp(text, f"socket_{self.audience}")

    core_consumers.BaseConsumer.arena_message = traced_message
    _install_lpp2()

    def dump():
        with _lock, open(path, "w") as out:
            json.dump(_stamps, out)

    atexit.register(dump)


def lpp2_content(data) -> str | None:
    """The line's text in an LPP2 payload (the stringified JSON a client sends or is sent), or in a
    socket.io frame carrying one (``42["message","{...}"]``, either Engine.IO generation)."""
    try:
        if isinstance(data, bytes):
            data = data.decode()
        if isinstance(data, str) and data.startswith("42"):
            event, data = json.loads(data[data.index("[") :])[:2]
            if event != "message":
                return None
        return json.loads(data).get("content") if isinstance(data, str) else None
    except (ValueError, TypeError, AttributeError):
        return None


LPP2_STAMPS = ("ws_in", "lpp2_event", "lpp2_sql", "lpp2_stored", "lpp2_relay", "ws_out")  # a line's, in order


def _install_lpp2() -> None:
    """An LPP2 line's stamps: its frame read off the judge's websocket (``ws_in``), its event in the hub
    (``lpp2_event``), its statement sent (``lpp2_sql``) and answered (``lpp2_stored``) on the loop's
    connections, its relay (``lpp2_relay``), the partner's frame handed to Twisted (``ws_out``)."""
    from daphne import ws_protocol

    from lpp.lpp2 import loop_lines, server

    protocol = ws_protocol.WebSocketProtocol
    on_message, server_send = protocol.onMessage, protocol.serverSend

    def frame_text(frame, binary):  # socket.io events only (a chat console's frames are not parsed)
        return lpp2_content(frame) if not binary and frame[:2] in ("42", b"42") else None

    def traced_on_message(self, payload, isBinary):
        stamp(frame_text(payload, isBinary), "ws_in")
        return on_message(self, payload, isBinary)

    def traced_server_send(self, content, binary=False):
        result = server_send(self, content, binary)
        stamp(frame_text(content, binary), "ws_out")
        return result

    protocol.onMessage, protocol.serverSend = traced_on_message, traced_server_send
    _wrap_async(server.Hub, "dispatch", "lpp2_event", None, lambda args, kwargs: lpp2_content(args[4]))
    _wrap_async(server.Hub, "_relay", "lpp2_relay", None, lambda args, kwargs: lpp2_content(args[5]))
    _wrap_async(loop_lines.LoopLines, "_execute", "lpp2_sql", "lpp2_stored", lambda args, kwargs: args[1][3])


def slowest(server: dict[str, dict[str, float]], client: dict[str, dict[str, float]], share: float = 0.01) -> list[str]:
    """Lines: for the slowest ``share`` of the messages (first to last client stamp) and for the rest,
    the mean time between consecutive stamps of the order they all share: where the tail's time goes."""
    merged = [{**server.get(text, {}), **stamps} for text, stamps in client.items()]
    orders = [tuple(sorted(stamps, key=stamps.get)) for stamps in merged]
    order = collections.Counter(orders).most_common(1)[0][0]
    rows = sorted(
        ((s[order[-1]] - s[order[0]], s) for s, o in zip(merged, orders) if o == order), key=lambda row: row[0]
    )
    cut = max(1, int(len(rows) * share))
    lines = [
        f"    {len(rows)} of {len(merged)} messages with every stamp; the slowest {cut} against the other "
        f"{len(rows) - cut} (mean ms):"
    ]
    for a, b in zip(order, order[1:]):
        tail = sum(s[b] - s[a] for _, s in rows[-cut:]) / cut * 1000.0
        rest = sum(s[b] - s[a] for _, s in rows[:-cut]) / max(1, len(rows) - cut) * 1000.0
        lines.append(f"    {a:>15} -> {b:<15} slowest {tail:7.3f}   others {rest:7.3f}")
    return lines


# --- CPU profile of every thread --------------------------------------------------------------------
def install_profile(path: str) -> None:
    profiles: list[cProfile.Profile] = []

    def start(*_):
        profile = cProfile.Profile(time.thread_time)  # CPU time of the thread, not its waits
        profiles.append(profile)
        profile.enable()

    start()  # the event loop's thread
    original_bootstrap = threading.Thread._bootstrap_inner

    def bootstrap(self):  # every thread started from now on: the database threads
        start()
        return original_bootstrap(self)

    threading.Thread._bootstrap_inner = bootstrap

    def dump():
        import pstats

        for profile in profiles:
            profile.disable()
        stats = None
        for profile in profiles:
            try:
                stats = pstats.Stats(profile) if stats is None else stats.add(profile)
            except TypeError:  # a thread that never ran anything
                continue
        if stats is not None:
            stats.dump_stats(path)

    atexit.register(dump)


# --- the benchmark's side: merge and print ----------------------------------------------------------
def stages(server: dict[str, dict[str, float]], client: dict[str, dict[str, float]]) -> list[str]:
    """Lines: p50/p99 of the time between consecutive stamps (those present) over all messages."""
    from bench.harness import percentile

    gaps: dict[tuple[str, str], list[float]] = {}
    for text, stamps in client.items():
        merged = {**server.get(text, {}), **stamps}
        present = sorted(((t, name) for name, t in merged.items()), key=lambda item: item[0])
        for (t0, a), (t1, b) in zip(present, present[1:]):
            gaps.setdefault((a, b), []).append((t1 - t0) * 1000.0)
    lines = []
    for (a, b), values in sorted(gaps.items(), key=lambda item: -len(item[1])):
        if len(values) < max(3, len(client) // 20):
            continue
        lines.append(
            f"    {a:>15} -> {b:<15} n={len(values):5d}  p50 {percentile(values, 50):6.3f} ms  "
            f"p90 {percentile(values, 90):6.3f}  p99 {percentile(values, 99):6.3f}  "
            f"mean {sum(values) / len(values):6.3f}"
        )
    return lines
