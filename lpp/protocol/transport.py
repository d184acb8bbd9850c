"""The LPP communications directory (docs/reference/protocols.md): one empty sub-directory
``<stamp>.<key>.<ext>`` per key press, ``ext`` = ``judge`` or ``other``.

:class:`CommDir` is one side of a directory: it writes this side's keys
(JComm stamps, canonical names, a typing rhythm) and reads the other side's
keys in numeric stamp order, deleting each directory once read. Unknown or
empty key names are reported (``problems`` and the ``lpp`` logger) and skipped.
:class:`Waker` wakes a reader when keys appear in any of its directories
(inotify through watchdog, or watchdog's polling observer as a fallback);
:class:`Watcher` is one directory's reader on it. Keys present before watching
started are read on the first call.
"""

from __future__ import annotations

import logging
import os
import random
import threading
import time
from collections.abc import Callable
from pathlib import Path

from bots.typing_delay import TypingModel
from lpp.protocol.keys import char_for, names_for_text
from lpp.protocol.model import JUDGE, OTHER, Keystroke
from lpp.protocol.stamps import StampWriter, sort_per_sender, stamp_time

log = logging.getLogger("lpp")
EXTENSIONS = (JUDGE, OTHER)

#: The rhythm an LPP entry types with unless told otherwise (docs/reference/protocols.md: typing speed is the
#: entry's own business; community clients used 70–150 ms a key).
LPP_TYPING = TypingModel(think_s=1.5, per_char_s=0.12, word_pause_s=0.08, jitter=0.35)


def parse_name(name: str) -> tuple[str, str, str] | None:
    """``(stamp, key, ext)`` of a key directory's name, ``None`` if it is none."""
    stamp, _, rest = name.partition(".")
    key, dot, ext = rest.rpartition(".")
    # ASCII digits only ("²" is a digit to str.isdigit, not to int); no name without a key part
    if not (stamp.isascii() and stamp.isdigit()) or ext not in EXTENSIONS or not dot:
        return None
    return stamp, key, ext


class CommDir:
    """One side (``"other"`` for an entry, ``"judge"`` for a judge program)."""

    def __init__(
        self,
        path: str | Path,
        side: str = OTHER,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], object] = time.sleep,
        rng: random.Random | None = None,
    ) -> None:
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
        return Keystroke(sender=self.side, key=name, char=char_for(name), stamp=stamp, time=stamp_time(stamp))

    def send_text(
        self,
        text: str,
        model: TypingModel | None = None,
        end_with_return: bool = True,
        on_key: Callable[[Keystroke], object] | None = None,
    ) -> list[Keystroke]:
        """Type ``text`` key by key with the rhythm of ``model`` (default: fast)."""
        names = names_for_text(text) + (["Return"] if end_with_return else [])
        model = model or TypingModel.fast()
        sent = []
        chars = [char_for(name) or "" for name in names]  # the model pauses after a space or punctuation
        for name, delay in zip(names, model.delays(chars, self.rng)):
            if delay > 0:
                self.sleep(delay)
            sent.append(self.send_key(name))
            if on_key:
                on_key(sent[-1])
        return sent

    # ---------------------------------------------------------------- reading
    def read(self, delete: bool = True) -> list[Keystroke]:
        """The other side's new keys in stamp order; their directories are deleted
        (with ``delete=False``, left for :meth:`remove`, so that a reader can store
        the keys first; unknown names are deleted at once all the same)."""
        found = []
        for name in os.listdir(self.path):
            parsed = parse_name(name)
            if parsed and parsed[2] == self.reads:
                found.append(Keystroke(sender=self.reads, key=parsed[1], char=None, stamp=parsed[0], time=None))
        keys = []
        for key in sort_per_sender(found):
            char = char_for(key.key)
            if char is None:
                self._remove(key)
                self._problem(f"unknown or empty key name {key.key!r} (stamp {key.stamp}), skipped")
                continue
            when = stamp_time(key.stamp)
            keys.append(
                Keystroke(
                    sender=key.sender,
                    key=key.key,
                    char=char,
                    stamp=key.stamp,
                    time=when if when is not None else self.clock(),
                )
            )
        if delete:
            self.remove(keys)
        return keys

    def remove(self, keys) -> None:
        """Delete the directories of keys read from the other side."""
        for key in keys:
            self._remove(key)

    def _remove(self, key: Keystroke) -> None:
        name = f"{key.stamp}.{key.key}.{key.sender}"
        target = self.path / name
        try:
            try:
                target.rmdir()
            except NotADirectoryError:  # a file of that name: delete it all the same
                target.unlink()
        except FileNotFoundError:
            pass
        except OSError as error:  # e.g. someone wrote a file into it
            self._problem(f"could not delete {name}: {error}")

    def _problem(self, message: str) -> None:
        self.problems.append(message)
        log.warning("%s: %s", self.path, message)


class Waker:
    """Wakes a reader when the other side creates keys in any of several directories,
    with one watchdog observer for them all. ``mode``: ``"inotify"``, ``"poll"`` or
    ``"auto"`` (inotify, falling back to watchdog's polling observer if it cannot
    start). :meth:`wait` returns the directories that changed since the last call;
    a directory is reported once when it starts being watched, so keys already
    there are read too."""

    def __init__(self, suffix: str, mode: str = "auto", poll_interval: float = 0.1) -> None:
        if mode not in ("auto", "inotify", "poll"):
            raise ValueError(f"mode must be auto, inotify or poll, not {mode!r}")
        self.suffix, self.mode, self.poll_interval = suffix, mode, poll_interval
        self.mode_used = ""
        self._changed: set[Path] = set()
        self._lock = threading.Lock()
        self._event = threading.Event()
        self._observer = self._poller = None
        self._handler = None
        self._watches: dict[Path, tuple] = {}  # path -> (observer, its watch)

    def start(self) -> Waker:
        from watchdog.events import FileSystemEventHandler

        mark, suffix = self._mark, self.suffix

        class _Handler(FileSystemEventHandler):
            def on_any_event(self, event) -> None:  # only new keys of the other side
                path = getattr(event, "dest_path", "") or event.src_path
                if event.event_type in ("created", "moved") and str(path).endswith(suffix):
                    mark(Path(os.fsdecode(path)).parent)

        self._handler = _Handler()
        if self.mode in ("auto", "inotify"):
            try:
                self._observer = _inotify_observer()
                self._observer.start()
                self.mode_used = "inotify"
            except Exception as error:  # no inotify here
                if self.mode == "inotify":
                    raise
                log.warning("inotify unavailable (%s); polling instead", error)
                self._observer = None
        if self._observer is None:
            self._observer = self._polling()
            self.mode_used = "poll"
        return self

    def watch(self, path: str | Path) -> None:
        """Wake on new keys in ``path`` (not below it); its present keys count as new."""
        path = Path(path)
        try:
            self._watches[path] = (self._observer, self._observer.schedule(self._handler, str(path)))
        except OSError as error:  # out of inotify watches, say
            if self.mode == "inotify" or self.mode_used == "poll":
                raise
            log.warning("cannot watch %s with inotify (%s); polling it", path, error)
            self._watches[path] = (self._polling(), self._polling().schedule(self._handler, str(path)))
        self._mark(path)

    def unwatch(self, path: str | Path) -> None:
        path = Path(path)
        observer, watch = self._watches.pop(path, (None, None))
        if observer is not None:
            try:
                observer.unschedule(watch)
            except (KeyError, OSError):  # the directory is gone already
                pass
        with self._lock:
            self._changed.discard(path)

    def _polling(self):
        if self._poller is None:
            from watchdog.observers.polling import PollingObserver

            self._poller = PollingObserver(timeout=self.poll_interval)
            self._poller.start()
        return self._poller

    def _mark(self, path: Path) -> None:
        with self._lock:
            self._changed.add(path)
            self._event.set()

    def wake(self) -> None:
        """Ends a :meth:`wait` now (with whatever changed so far)."""
        self._event.set()

    def wait(self, timeout: float | None = None) -> set[Path]:
        """The directories with new keys, waiting up to ``timeout`` seconds for one."""
        self._event.wait(timeout)
        with self._lock:
            self._event.clear()
            changed, self._changed = self._changed, set()
        return changed

    def stop(self) -> None:
        # watchdog logs a harmless "called when the thread is inactive" error
        # when an event races the shutdown; keep it off the user's terminal
        quiet = logging.getLogger("watchdog.observers.inotify")
        level = quiet.level
        quiet.setLevel(logging.CRITICAL)
        try:
            for observer in {self._observer, self._poller} - {None}:
                observer.stop()
                observer.join(timeout=2)
        finally:
            quiet.setLevel(level)
            self._observer = self._poller = None
            self._watches.clear()


class Watcher:
    """Waits for the other side's keys in one communications directory (a
    :class:`Waker` on it); directories present before it started are read on
    the first call."""

    def __init__(self, comm: CommDir, mode: str = "auto", poll_interval: float = 0.1) -> None:
        self.comm = comm
        self.waker = Waker("." + comm.reads, mode, poll_interval)

    @property
    def mode_used(self) -> str:
        return self.waker.mode_used

    def start(self) -> Watcher:
        self.waker.start()
        self.waker.watch(self.comm.path)
        return self

    def get(self, timeout: float | None = None) -> list[Keystroke]:
        """New keys, waiting up to ``timeout`` seconds for something to happen;
        also rescans on a timeout, so a missed event costs latency, not keys."""
        self.waker.wait(timeout)
        return self.comm.read()

    def stop(self) -> None:
        self.waker.stop()

    def __enter__(self) -> Watcher:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def _inotify_observer():
    from watchdog.observers.inotify import InotifyObserver

    return InotifyObserver()
