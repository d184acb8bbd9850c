"""The LPP communications directory (lpp.md §1.2): one empty sub-directory
``<stamp>.<key>.<ext>`` per key press, ``ext`` = ``judge`` or ``other``.

:class:`CommDir` is one side of a directory: it writes this side's keys
(JComm stamps, canonical names, a typing rhythm) and reads the other side's
keys in numeric stamp order, deleting each directory once read. Unknown or
empty key names are reported (``problems`` and the ``lpp`` logger) and skipped.
:class:`Watcher` wakes a reader when something appears (inotify through
watchdog, or watchdog's polling observer as a fallback); directories present
before it started are read on the first call.
"""

from __future__ import annotations

import logging
import os
import random
import threading
import time
from collections.abc import Callable
from pathlib import Path

from lpp.keys import char_for, names_for_text
from lpp.model import JUDGE, OTHER, Keystroke
from lpp.stamps import StampWriter, sort_per_sender, stamp_time
from lpp.typing_model import TypingModel

log = logging.getLogger("lpp")
EXTENSIONS = (JUDGE, OTHER)


def parse_name(name: str) -> tuple[str, str, str] | None:
    """``(stamp, key, ext)`` of a key directory's name, ``None`` if it is none."""
    stamp, _, rest = name.partition(".")
    key, _, ext = rest.rpartition(".")
    if not stamp.isdigit() or ext not in EXTENSIONS or not rest:
        return None
    return stamp, key, ext


class CommDir:
    """One side (``"other"`` for an entry, ``"judge"`` for a judge program)."""

    def __init__(self, path: str | Path, side: str = OTHER,
                 clock: Callable[[], float] = time.time,
                 sleep: Callable[[float], object] = time.sleep,
                 rng: random.Random | None = None) -> None:
        if side not in EXTENSIONS:
            raise ValueError(f"side must be 'judge' or 'other', not {side!r}")
        self.path = Path(path)
        if not self.path.is_dir():
            raise NotADirectoryError(f"no such communications directory: {self.path}")
        self.side = side
        self.reads = OTHER if side == JUDGE else JUDGE
        self.clock, self.sleep = clock, sleep
        self.rng = rng or random.Random()
        self.stamps = StampWriter(clock)
        self.problems: list[str] = []

    # ---------------------------------------------------------------- writing
    def send_key(self, name: str) -> Keystroke:
        """Create one key directory now; returns the keystroke as sent."""
        stamp = self.stamps.next()
        (self.path / f"{stamp}.{name}.{self.side}").mkdir()
        return Keystroke(sender=self.side, key=name, char=char_for(name), stamp=stamp,
                         time=stamp_time(stamp))

    def send_text(self, text: str, model: TypingModel | None = None,
                  end_with_return: bool = True,
                  on_key: Callable[[Keystroke], object] | None = None) -> list[Keystroke]:
        """Type ``text`` key by key with the rhythm of ``model`` (default: fast)."""
        names = names_for_text(text) + (["Return"] if end_with_return else [])
        model = model or TypingModel.fast()
        sent = []
        for name, delay in zip(names, model.delays(names, self.rng)):
            if delay > 0:
                self.sleep(delay)
            sent.append(self.send_key(name))
            if on_key:
                on_key(sent[-1])
        return sent

    # ---------------------------------------------------------------- reading
    def read(self) -> list[Keystroke]:
        """The other side's new keys in stamp order; their directories are deleted."""
        found = []
        for name in os.listdir(self.path):
            parsed = parse_name(name)
            if parsed and parsed[2] == self.reads:
                found.append(Keystroke(sender=self.reads, key=parsed[1], char=None,
                                       stamp=parsed[0], time=None))
        keys = []
        for key in sort_per_sender(found):
            self._remove(f"{key.stamp}.{key.key}.{self.reads}")
            char = char_for(key.key)
            if char is None:
                self._problem(f"unknown or empty key name {key.key!r} (stamp {key.stamp}), skipped")
                continue
            when = stamp_time(key.stamp)
            keys.append(Keystroke(sender=key.sender, key=key.key, char=char, stamp=key.stamp,
                                  time=when if when is not None else self.clock()))
        return keys

    def _remove(self, name: str) -> None:
        target = self.path / name
        try:
            target.rmdir() if target.is_dir() else target.unlink()
        except FileNotFoundError:
            pass
        except OSError as error:  # e.g. someone wrote a file into it
            self._problem(f"could not delete {name}: {error}")

    def _problem(self, message: str) -> None:
        self.problems.append(message)
        log.warning("%s: %s", self.path, message)


class Watcher:
    """Waits for the other side's keys. ``mode``: ``"inotify"``, ``"poll"`` or
    ``"auto"`` (inotify, falling back to polling if it cannot start)."""

    def __init__(self, comm: CommDir, mode: str = "auto", poll_interval: float = 0.1) -> None:
        if mode not in ("auto", "inotify", "poll"):
            raise ValueError(f"mode must be auto, inotify or poll, not {mode!r}")
        self.comm, self.mode, self.poll_interval = comm, mode, poll_interval
        self.mode_used = ""
        self._wake = threading.Event()
        self._observer = None

    def start(self) -> Watcher:
        from watchdog.events import FileSystemEventHandler

        wake, suffix = self._wake, "." + self.comm.reads

        class _Handler(FileSystemEventHandler):
            def on_any_event(self, event) -> None:  # only new keys of the other side
                path = getattr(event, "dest_path", "") or event.src_path
                if event.event_type in ("created", "moved") and str(path).endswith(suffix):
                    wake.set()

        if self.mode in ("auto", "inotify"):
            try:
                self._observer = self._start(_inotify_observer(), _Handler())
                self.mode_used = "inotify"
            except Exception as error:  # no inotify here, or out of watches
                if self.mode == "inotify":
                    raise
                log.warning("inotify unavailable (%s); polling %s", error, self.comm.path)
        if self._observer is None:
            from watchdog.observers.polling import PollingObserver

            self._observer = self._start(PollingObserver(timeout=self.poll_interval), _Handler())
            self.mode_used = "poll"
        wake.set()  # directories already present are read on the first get()
        return self

    def _start(self, observer, handler):
        observer.schedule(handler, str(self.comm.path), recursive=False)
        observer.start()
        return observer

    def get(self, timeout: float | None = None) -> list[Keystroke]:
        """New keys, waiting up to ``timeout`` seconds for something to happen;
        also rescans on a timeout, so a missed event costs latency, not keys."""
        self._wake.wait(timeout)
        self._wake.clear()
        return self.comm.read()

    def stop(self) -> None:
        if self._observer is None:
            return
        # watchdog logs a harmless "called when the thread is inactive" error
        # when an event races the shutdown; keep it off the user's terminal
        quiet = logging.getLogger("watchdog.observers.inotify")
        level = quiet.level
        quiet.setLevel(logging.CRITICAL)
        try:
            self._observer.stop()
            self._observer.join(timeout=2)
        finally:
            quiet.setLevel(level)
            self._observer = None

    def __enter__(self) -> Watcher:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def _inotify_observer():
    from watchdog.observers.inotify import InotifyObserver

    return InotifyObserver()
