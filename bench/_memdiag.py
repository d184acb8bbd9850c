"""An opt-in memory diagnostic of a server process: what it holds, sampled while it runs.

Off unless ``ARENA_MEMDIAG`` names a file (bench.settings). Then a daemon thread of the benchmarks'
daphne process (started by bench.asgi) appends one JSON line to that file every ``ARENA_MEMDIAG_S`` seconds:

- ``rss_mb``, ``objects`` (gc-tracked objects), ``blocks`` (pymalloc blocks in use, every object);
- ``malloc``: glibc's own accounting (mallinfo2): ``heap_mb`` (the main and thread arenas' memory
  taken from the system), ``mmap_mb`` (large blocks mapped on their own), ``used_mb`` (what is
  allocated) and ``free_mb`` (free, kept in the arenas): RSS that grows while ``used_mb`` does not is
  fragmentation, not objects;
- ``pymalloc``: CPython's small-object allocator: ``arenas_mb`` (1 MiB arenas mapped outside malloc),
  ``used_mb``, ``free_mb`` (free blocks inside those arenas);
- ``held``: the per-channel and per-loop state this project keeps (channel layer buffers and pops,
  push pumps, rate-limit clients), the process's threads and its event loops' tasks: each must stay
  bounded as pages connect and go;
- ``types``: the number of live objects of every type (``module.QualName``), for diffing two lines;
  ``growth``: the 30 types grown most since the first line;
- with ``ARENA_MEMDIAG_TRACEMALLOC`` on, ``traced``: the 30 source lines (traceback depth 1, the
  cheapest) whose allocations grew most since the first line, in KiB.

`bench.soak --memdiag PATH` turns it on for its daphne and summarises the file at the end
(:func:`summary`).
"""

from __future__ import annotations

import collections
import ctypes
import gc
import json
import logging
import sys
import threading
import time
from pathlib import Path

log = logging.getLogger(__name__)
TOP = 30


class _Mallinfo2(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in (
            "arena",
            "ordblks",
            "smblks",
            "hblks",
            "hblkhd",
            "usmblks",
            "fsmblks",
            "uordblks",
            "fordblks",
            "keepcost",
        )
    ]


def malloc_stats() -> dict | None:
    """glibc's mallinfo2 in MiB (None where there is no glibc >= 2.33)."""
    try:
        mallinfo2 = ctypes.CDLL(None).mallinfo2
    except (OSError, AttributeError):
        return None
    mallinfo2.restype = _Mallinfo2
    info = mallinfo2()
    mb = 1024 * 1024
    return {
        "heap_mb": round(info.arena / mb, 2),
        "mmap_mb": round(info.hblkhd / mb, 2),
        "used_mb": round(info.uordblks / mb, 2),
        "free_mb": round(info.fordblks / mb, 2),
    }


def pymalloc_stats() -> dict | None:
    """CPython's small-object allocator (sys._debugmallocstats, written to a file of our own rather
    than to stderr) in MiB: ``arenas_mb`` taken from the system (1 MiB mappings each, outside malloc),
    ``used_mb`` in allocated blocks, ``free_mb`` in blocks free in those arenas (fragmentation)."""
    import tempfile

    try:
        libc = ctypes.CDLL(None)
        libc.fopen.restype, libc.fopen.argtypes = ctypes.c_void_p, [ctypes.c_char_p, ctypes.c_char_p]
        libc.fclose.argtypes = [ctypes.c_void_p]
        stats = ctypes.pythonapi._PyObject_DebugMallocStats
        stats.argtypes, stats.restype = [ctypes.c_void_p], ctypes.c_int
    except (OSError, AttributeError):
        return None
    with tempfile.NamedTemporaryFile(prefix="memdiag-", suffix=".txt") as out:
        handle = libc.fopen(out.name.encode(), b"w")
        if not handle:
            return None
        stats(handle)
        libc.fclose(handle)
        text = Path(out.name).read_text()
    found = {}
    for key, label in (
        ("arenas", "# arenas allocated current"),
        ("used", "# bytes in allocated blocks"),
        ("free", "# bytes in available blocks"),
    ):
        for line in text.splitlines():
            if line.startswith(label):
                found[key] = int(line.rsplit("=", 1)[1].replace(",", "").strip())
    if len(found) < 3:
        return None
    mb = 1024 * 1024
    return {
        "arenas_mb": found["arenas"],
        "used_mb": round(found["used"] / mb, 2),
        "free_mb": round(found["free"] / mb, 2),
    }


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def type_counts() -> collections.Counter:
    counts: collections.Counter = collections.Counter()
    for obj in gc.get_objects():
        kind = type(obj)
        counts[f"{kind.__module__}.{kind.__qualname__}"] += 1
    return counts


def held() -> dict:
    """The sizes of the per-channel and per-loop state this project keeps, and threads and tasks."""
    import asyncio

    from core import notify, ratelimit

    sizes: dict = {
        "threads": threading.active_count(),
        "pumps": len(notify._pumps),
        "rate_clients": len(ratelimit._clients),
    }
    loops = [loop for loop in list(notify._pumps.keys()) + [notify._server_loop] if loop is not None]
    try:
        sizes["tasks"] = sum(len(asyncio.all_tasks(loop)) for loop in set(loops))
    except RuntimeError:  # the set changed while it was read
        pass
    from channels.layers import channel_layers

    for alias, layer in list(channel_layers.backends.items()):
        for name in ("receive_buffer", "_popped", "_fetches", "groups", "channels", "receive_cleaners"):
            value = getattr(layer, name, None)
            if hasattr(value, "__len__"):
                sizes[f"layer.{alias}.{name}"] = len(value)
        closed = getattr(getattr(layer, "receive_buffer", None), "closed", None)
        if closed is not None:
            sizes[f"layer.{alias}.closed"] = len(closed)
        sizes[f"layer.{alias}.loops"] = len(getattr(layer, "_layers", {}) or {})
    return sizes


class Sampler:
    """Appends one JSON line to `path` every `interval_s` seconds, on a daemon thread."""

    def __init__(self, path: str, interval_s: float, tracemalloc_on: bool):
        self.path, self.interval_s, self.tracemalloc_on = Path(path), interval_s, tracemalloc_on
        self.first_types: collections.Counter | None = None
        self.first_trace = None
        self.started = time.monotonic()
        self.thread = threading.Thread(target=self.run, name="arena-memdiag", daemon=True)

    def start(self) -> None:
        if self.tracemalloc_on:
            import tracemalloc

            tracemalloc.start(1)
        self.thread.start()

    def run(self) -> None:
        while True:
            try:
                self.sample()
            except Exception:  # a diagnostic must never take the server down
                log.exception("memdiag: sampling failed")
            time.sleep(self.interval_s)

    def sample(self) -> dict:
        gc.collect()
        types = type_counts()
        if self.first_types is None:
            self.first_types = types
        growth = {name: types[name] - self.first_types.get(name, 0) for name in types}
        top = sorted(growth.items(), key=lambda item: -item[1])[:TOP]
        line = {
            "t": round(time.monotonic() - self.started, 1),
            "rss_mb": round(rss_mb(), 1),
            "objects": sum(types.values()),
            "blocks": sys.getallocatedblocks(),
            "malloc": malloc_stats(),
            "pymalloc": pymalloc_stats(),
            "held": held(),
            "growth": dict(top),
            "types": dict(types),
        }
        if self.tracemalloc_on:
            line["traced"] = self.traced()
        with self.path.open("a") as out:
            out.write(json.dumps(line) + "\n")
        return line

    def traced(self) -> dict:
        import tracemalloc

        snapshot = tracemalloc.take_snapshot().filter_traces([tracemalloc.Filter(False, tracemalloc.__file__)])
        if self.first_trace is None:
            self.first_trace = snapshot
        stats = snapshot.compare_to(self.first_trace, "lineno")[:TOP]
        return {
            "traced_mb": round(tracemalloc.get_traced_memory()[0] / 2**20, 2),
            **{f"{s.traceback[0].filename}:{s.traceback[0].lineno}": round(s.size_diff / 1024, 1) for s in stats},
        }


_started: Sampler | None = None


def start_from_settings() -> Sampler | None:
    """Start the sampler when settings.ARENA_MEMDIAG names a file (once per process)."""
    global _started
    from django.conf import settings

    if not settings.ARENA_MEMDIAG or _started is not None:
        return _started
    _started = Sampler(settings.ARENA_MEMDIAG, settings.ARENA_MEMDIAG_S, settings.ARENA_MEMDIAG_TRACEMALLOC)
    _started.start()
    log.warning(
        "memdiag: sampling this process's memory every %s s into %s", settings.ARENA_MEMDIAG_S, settings.ARENA_MEMDIAG
    )
    return _started


def summary(path: str, top: int = TOP) -> str:
    """The first and last lines of a memdiag file side by side: RSS, malloc, held state, and the types
    (and traced lines) grown most between them."""
    lines = [json.loads(text) for text in Path(path).read_text().splitlines() if text.strip()]
    if len(lines) < 2:
        return f"memdiag: {len(lines)} sample(s) in {path}: too few to compare"
    first, last = lines[1] if len(lines) > 2 else lines[0], lines[-1]  # the first line is taken at start-up
    minutes = max((last["t"] - first["t"]) / 60, 1e-9)
    out = [f"memdiag ({len(lines)} samples, {path}), from t={first['t']:.0f}s to t={last['t']:.0f}s:"]
    for key in ("rss_mb", "objects", "blocks"):
        out.append(f"  {key:28s} {first[key]:>12} -> {last[key]:>12}  ({(last[key] - first[key]) / minutes:+.2f}/min)")
    for section in ("malloc", "pymalloc", "held"):
        for key in sorted(set(first.get(section) or {}) | set(last.get(section) or {})):
            a, b = (first.get(section) or {}).get(key), (last.get(section) or {}).get(key)
            out.append(f"  {section + '.' + key:28s} {a!s:>12} -> {b!s:>12}")
    grown = sorted(
        ((last["types"].get(n, 0) - first["types"].get(n, 0), n) for n in set(last["types"]) | set(first["types"])),
        reverse=True,
    )[:top]
    out.append("  types grown most:")
    out += [f"    {delta:+8d}  {name}  ({last['types'].get(name, 0)})" for delta, name in grown if delta > 0]
    if "traced" in last:
        out.append(
            f"  traced (KiB grown since the sampler started; traced total {last['traced'].get('traced_mb')} MiB):"
        )
        out += [f"    {kib:+10.1f}  {where}" for where, kib in last["traced"].items() if where != "traced_mb"][:top]
    return "\n".join(out)
