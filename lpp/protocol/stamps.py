"""LPP stamps: the ordering field in front of every key name (docs/reference/protocols.md).

JComm wrote 18 digits: 11 of Unix seconds then 7 of microseconds
(``013370740830274430`` = 1337074083.274430 s). :class:`StampWriter` writes that
form, fixed width and strictly increasing per writer even when the clock stands
still or steps back. Readers must not trust width or padding (one bridge wrote an
unpadded counter), so ordering is always numeric: :func:`stamp_value`.
"""

from __future__ import annotations

import heapq
import threading
import time as _time
from collections.abc import Callable, Iterable
from typing import TypeVar

T = TypeVar("T")

WIDTH = 18
_MICRO = 1_000_000


def format_stamp(micros: int) -> str:
    """The 18-digit JComm stamp of a time given in whole microseconds."""
    seconds, micro = divmod(micros, _MICRO)
    if seconds >= 10**11 or micros < 0:
        raise ValueError(f"time out of range for an LPP stamp: {micros} µs")
    return f"{seconds:011d}{micro:07d}"


def stamp_value(stamp: str) -> int:
    """The numeric ordering key of a stamp (``ValueError`` if not all digits)."""
    if not stamp.isdigit():
        raise ValueError(f"not an LPP stamp: {stamp!r}")
    return int(stamp)


def stamp_time(stamp: str) -> float | None:
    """Seconds since the epoch for a JComm stamp; ``None`` for a plain counter."""
    if len(stamp) == WIDTH and stamp.isascii() and stamp.isdigit() and stamp[11] == "0":
        return int(stamp[:11]) + int(stamp[11:]) / _MICRO
    return None


class StampWriter:
    """Hands out JComm stamps from ``clock`` (seconds), each greater than the last."""

    def __init__(self, clock: Callable[[], float] = _time.time) -> None:
        self._clock = clock
        self._last = -1
        self._lock = threading.Lock()

    def next(self) -> str:
        with self._lock:
            micros = max(int(self._clock() * _MICRO), self._last + 1)
            self._last = micros
            return format_stamp(micros)


def sort_per_sender(items: Iterable[T]) -> list[T]:
    """Items with ``.sender`` and ``.stamp`` in order: each sender's items sorted
    numerically by stamp (so ``10`` follows ``9``), the senders then merged by
    stamp value, ties kept in arrival order. Different writers' clocks may
    disagree a little; each writer's own order is always respected."""
    groups: dict[str, list[T]] = {}
    for item in items:
        groups.setdefault(item.sender, []).append(item)
    ordered = [sorted(g, key=lambda i: _value_or_zero(i.stamp)) for g in groups.values()]
    return list(heapq.merge(*ordered, key=lambda i: _value_or_zero(i.stamp)))


def _value_or_zero(stamp: str) -> tuple[int, str]:
    """The numeric order of a stamp without converting it (a log may carry a stamp of thousands of digits,
    past what int() converts); anything but ASCII digits counts as zero."""
    digits = stamp.lstrip("0") if stamp.isascii() and stamp.isdigit() else ""
    return len(digits), digits
