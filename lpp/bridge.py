"""Bridge a legacy LPP entry program into the platform's live conversations.

For each running conversation whose witness is the entry, the bridge starts one
copy of the program on its own communications directory (``DIR/<public id>/``),
writes each new interrogator message there as ``.judge`` keys, reads the
program's ``.other`` keys back, stores every keystroke (``arena.Keystroke``),
segments them into utterances (``lpp.protocol.lines``) and posts each as the witness's
message (``message_post(user=None)``). ``Bridge.step()`` does one round of that
and says whether it did work; ``Bridge.run()`` loops, reading a program's keys
as soon as inotify reports them (the keystroke latency path: one transaction
and one push for all conversations' new keys). Progress lives in the database
(``BridgeLink``) and a key's directory goes only once the key is stored, so a
new Bridge neither re-sends a judge message nor loses or doubles program keys.
A program that exits or stays silent is logged and reported in
``BridgeStatus`` (the admin), never to the judge.
"""

from __future__ import annotations

import logging
import shlex
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from django.db import transaction
from django.utils import timezone

from arena.models import Conversation, Entry, Keystroke, Message, Status
from arena.services import message_post
from arena.services.keystrokes import Key as StoredKey
from arena.services.keystrokes import keystrokes_store_many
from bots.typing_delay import TypingModel
from core.errors import Closed, InvalidInput
from lpp.importer import when
from lpp.models import BridgeLink, BridgeStatus
from lpp.protocol.keys import char_for, name_for
from lpp.protocol.lines import Segmenter
from lpp.protocol.model import JUDGE, OTHER
from lpp.protocol.model import Keystroke as Key
from lpp.protocol.transport import CommDir, Waker

log = logging.getLogger("lpp.bridge")
INSTANT = TypingModel(think_s=0.0, per_char_s=0.0, word_pause_s=0.0, jitter=0.0)
State = BridgeStatus.State
HEARTBEAT_S = 1.0  # BridgeStatus.last_seen / last_output_at are written at most this often
STOP_CHECK_S = 0.25  # Bridge.run notices its stop event at least this often
FULL_STEP_S = 1.0  # Bridge.run starts and stops programs with their conversations this often


@dataclass
class _Link:
    conversation: Conversation
    comm: CommDir
    log_path: Path
    segmenter: Segmenter
    progress: BridgeLink
    process: subprocess.Popen | None = None
    restart_at: float = 0.0
    waiting_since: float | None = None  # a judge message is unanswered since then
    seq_of: dict = field(default_factory=dict)  # id(lpp key) -> Keystroke.seq


class Bridge:
    def __init__(
        self,
        entry: Entry,
        command: str,
        directory,
        *,
        silence_s: float = 30.0,
        idle_s: float = 3.0,
        restart_s: float = 5.0,
        clock=time.time,
    ) -> None:
        self.entry, self.command = entry, command
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.silence_s, self.idle_s, self.restart_s, self.clock = silence_s, idle_s, restart_s, clock
        self.links: dict[int, _Link] = {}
        self.waker: Waker | None = None
        self._heartbeat: dict = {}
        self._reported_at = float("-inf")
        self.status, _ = BridgeStatus.objects.get_or_create(entry=entry)
        self._report(command=command)

    # ------------------------------------------------------------------ loop
    def run(self, stop: threading.Event, poll_s: float = 0.1, wake: str = "auto") -> None:
        """Until ``stop`` is set (SIGTERM: the current step finishes first): a full :meth:`step`
        every second (programs started and stopped with their conversations), the judges' new keys
        and messages every ``poll_s`` seconds, and, in between, the programs' keys as soon as their
        directories appear (``wake``: ``"inotify"``, ``"auto"`` = inotify or else watchdog's
        polling, or ``"poll"``: read every ``poll_s`` seconds only)."""
        self.waker = None if wake == "poll" else Waker("." + OTHER, wake, poll_s).start()
        try:
            for link in self.links.values():
                self._watch(link)
            due = full_due = 0.0
            while not stop.is_set():
                now = time.monotonic()
                if now >= full_due:
                    self.step()
                    full_due = now + max(poll_s, FULL_STEP_S)
                    due = now + poll_s
                elif now >= due:
                    self._tick(list(self.links.values()))
                    due = now + poll_s
                wait = min(max(0.0, due - time.monotonic()), STOP_CHECK_S)
                if self.waker is None:
                    stop.wait(wait)
                    continue
                changed = self.waker.wait(wait)
                woken = [link for link in self.links.values() if link.comm.path in changed]
                if woken:
                    self._collect(woken)
        finally:
            if self.waker is not None:
                self.waker.stop()
                self.waker = None
            self.close()

    def step(self) -> bool:
        """One full round: start and stop programs with their conversations, then a :meth:`_tick`.
        Says whether it did work."""
        running = {
            c.pk: c
            for c in Conversation.objects.filter(
                witness_entry=self.entry, status=Status.RUNNING, interrogation__status=Status.RUNNING
            ).select_related("interrogation")
        }
        did = False
        for pk in set(self.links) - set(running):
            self._drop(pk)
            did = True
        for pk, conversation in running.items():
            if pk not in self.links:
                self._open(conversation)
        links = list(self.links.values())
        for link in links:
            did |= self._keep_alive(link)
        if not running and self.status.state == State.OK:
            self._report(state=State.IDLE)
        return self._tick(links) or did

    def _tick(self, links: list[_Link]) -> bool:
        """The judges' side to the programs, the programs' keys to the judges, silence, heartbeat."""
        did = self._forward(links) if links else False
        did |= self._collect(links)
        for link in links:
            self._check_silence(link)
        self._beat(last_seen=timezone.now())
        return did

    def close(self) -> None:
        for pk in list(self.links):
            self._drop(pk)
        self._report(state=State.STOPPED, last_seen=timezone.now())

    # ------------------------------------------------------------ conversations
    def _open(self, conversation: Conversation) -> _Link:
        path = self.directory / str(conversation.public_id)
        path.mkdir(exist_ok=True)
        progress, _ = BridgeLink.objects.get_or_create(conversation=conversation)
        link = self.links[conversation.pk] = _Link(
            conversation,
            CommDir(path, side=JUDGE, clock=self.clock, sleep=time.sleep),
            self.directory / f"{conversation.public_id}.log",
            Segmenter(idle_timeout=self.idle_s),
            progress,
        )
        # program keys stored before a restart but not yet posted: open the line again (or post it)
        unposted = list(
            conversation.keystrokes.filter(
                sender_role=Message.Role.WITNESS, seq__gt=progress.posted_keystroke_seq
            ).order_by("seq")
        )
        finished = []
        for row in unposted:
            key = Key(sender=OTHER, key=row.key, char=char_for(row.key), stamp=row.stamp, time=self.clock())
            link.seq_of[id(key)] = row.seq
            finished += link.segmenter.feed(key)
        for utterance in finished:
            self._post(link, utterance)
        # stored, but the bridge stopped before deleting their directories: not stored twice
        # (before the program starts again, so that its new keys cannot be mistaken for them)
        stored = {(row.stamp, row.key) for row in unposted}
        link.comm.remove([key for key in link.comm.read(delete=False) if (key.stamp, key.key) in stored])
        self._watch(link)
        return link

    def _watch(self, link: _Link) -> None:
        if self.waker is not None:
            self.waker.watch(link.comm.path)

    def _drop(self, pk: int) -> None:
        link = self.links.pop(pk)
        if self.waker is not None:
            self.waker.unwatch(link.comm.path)
        if link.process is not None:
            _stop(link.process)

    def _keep_alive(self, link: _Link) -> bool:
        if link.process is not None and link.process.poll() is None:
            return False
        if link.process is not None:
            code, link.process = link.process.returncode, None
            link.restart_at = self.clock() + self.restart_s
            self._problem(
                State.CRASHED,
                f"program exited with code {code} in conversation {link.conversation.pk}{_tail(link.log_path)}",
            )
            return True
        if self.clock() < link.restart_at:
            return False
        argv = shlex.split(self.command)
        argv = (
            [a.replace("{dir}", str(link.comm.path)) for a in argv]
            if "{dir}" in self.command
            else argv + [str(link.comm.path)]
        )
        try:
            with link.log_path.open("ab") as out:
                link.process = subprocess.Popen(
                    argv, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True
                )
        except OSError as error:
            link.restart_at = self.clock() + self.restart_s
            self._problem(State.CRASHED, f"cannot start {argv[0]!r}: {error}")
            return True
        log.info("entry %s: started %s (pid %s)", self.entry.pk, argv, link.process.pid)
        if self.status.state in (State.IDLE, State.STOPPED):
            self._report(state=State.OK)
        return True

    # ------------------------------------------------------------------ judge -> program
    def _forward(self, links: list[_Link]) -> bool:
        """The judges' new messages (or, in keystroke mode, keys) of all links, in one query each."""
        by_messages = [link for link in links if not link.conversation.interrogation.keystroke_mode]
        by_keys = [link for link in links if link.conversation.interrogation.keystroke_mode]
        did = False
        if by_messages:
            did |= self._forward_messages(by_messages)
        if by_keys:
            did |= self._forward_keys(by_keys)
        return did

    def _forward_messages(self, links: list[_Link]) -> bool:
        of = {link.conversation.pk: link for link in links}
        pending = _judges_rows(Message, links, "judge_seq")
        for message in pending:
            link = of[message.conversation_id]
            with transaction.atomic():
                keys = link.comm.send_text(message.text, INSTANT)
                self._store(link.conversation, Message.Role.INTERROGATOR, keys)
                BridgeLink.objects.filter(pk=link.progress.pk).update(judge_seq=message.seq)
            link.progress.judge_seq = message.seq
            link.waiting_since = link.waiting_since or self.clock()
        return bool(pending)

    def _forward_keys(self, links: list[_Link]) -> bool:
        """Keystroke mode: the judge's keys, stored as typed in the browser, go to the program one
        by one as they come (BackSpace included), as JComm sent them."""
        of = {link.conversation.pk: link for link in links}
        pending = _judges_rows(Keystroke, links, "judge_keystroke_seq")
        moved = {}
        for row in pending:
            link = moved[row.conversation_id] = of[row.conversation_id]
            link.progress.judge_keystroke_seq = row.seq
            try:
                name = row.key if row.key in ("BackSpace", "Return") else name_for(row.char)
            except ValueError:  # no LPP key for it (say, a non-ASCII letter): the program never sees it
                log.warning("entry %s: judge key %r has no LPP name, not sent", self.entry.pk, row.char)
                continue
            link.comm.send_key(name)
            if row.key == "Return":
                link.waiting_since = link.waiting_since or self.clock()
        if moved:
            BridgeLink.objects.bulk_update([link.progress for link in moved.values()], ["judge_keystroke_seq"])
        return bool(pending)

    # ------------------------------------------------------------------ program -> judge
    def _collect(self, links: list[_Link]) -> bool:
        """The programs' new keys: stored in one transaction and pushed to the judges (one push),
        then their directories deleted (a crash in between: _open skips them), then segmented."""
        read = [(link, keys) for link in links if (keys := link.comm.read(delete=False))]
        now = self.clock()
        finished = []
        if read:
            with transaction.atomic():
                stored = keystrokes_store_many(
                    [(link.conversation, Message.Role.WITNESS, _stored(keys)) for link, keys in read]
                )
            for (link, keys), rows in zip(read, stored):
                link.comm.remove(keys)
                link.waiting_since = None
                for key, row in zip(keys, rows):
                    key = Key(sender=OTHER, key=key.key, char=key.char, stamp=key.stamp, time=now)
                    link.seq_of[id(key)] = row.seq
                    finished += [(link, u) for u in link.segmenter.feed(key)]
            if self.status.state in (State.SILENT, State.CRASHED, State.IDLE):
                self._report(state=State.OK, last_output_at=timezone.now())
            elif self.status.last_output_at is None:  # the first output is shown at once
                self._report(last_output_at=timezone.now())
            else:
                self._beat(last_output_at=timezone.now())
        for link in links:
            finished += [(link, u) for u in link.segmenter.expire(now)]
        for link, utterance in finished:
            self._post(link, utterance)
        return bool(read or finished)

    def _post(self, link: _Link, utterance) -> None:
        last_seq = link.seq_of.get(id(utterance.keystrokes[-1]), 0)
        for key in utterance.keystrokes:
            link.seq_of.pop(id(key), None)
        with transaction.atomic():
            try:
                message_post(
                    conversation_id=link.conversation.pk,
                    sender_role=Message.Role.WITNESS,
                    text=utterance.text,
                    user=None,
                )
            except Closed:
                pass  # time ran out while the program typed: dropped, as a human's line would be
            except InvalidInput as error:
                self._problem(self.status.state, f"reply not posted: {error}")
            BridgeLink.objects.filter(pk=link.progress.pk).update(posted_keystroke_seq=last_seq)
        link.progress.posted_keystroke_seq = last_seq

    def _check_silence(self, link: _Link) -> None:
        if link.waiting_since is not None and self.clock() - link.waiting_since > self.silence_s:
            link.waiting_since = None  # reported once per unanswered message
            self._problem(
                State.SILENT,
                f"no answer {self.silence_s:g} s after the judge's message in conversation {link.conversation.pk}",
            )

    # ------------------------------------------------------------------ records
    def _store(self, conversation: Conversation, role: str, keys) -> list[Keystroke]:
        """Store the keys (the conversation locked) and stream them to the other side's page."""
        return keystrokes_store_many([(conversation, role, _stored(keys))])[0]

    def _problem(self, state: str, message: str) -> None:
        log.warning("entry %s (%s): %s", self.entry.pk, self.entry, message)
        self._report(state=state, last_error=message, last_error_at=timezone.now())

    def _beat(self, **fields) -> None:
        """Heartbeat fields: written with the next report, or now if none for HEARTBEAT_S."""
        self._heartbeat.update(fields)
        if time.monotonic() - self._reported_at >= HEARTBEAT_S:
            self._report()

    def _report(self, **fields) -> None:
        fields = {**self._heartbeat, **fields}
        self._heartbeat, self._reported_at = {}, time.monotonic()
        for name, value in fields.items():
            setattr(self.status, name, value)
        BridgeStatus.objects.filter(pk=self.status.pk).update(**fields)


def _judges_rows(model, links: list[_Link], progress_field: str) -> list:
    """The interrogators' Message or Keystroke rows of the links' conversations past each one's
    progress, in order. Plain SQL: this runs every poll_s, and the ORM took longer to build the
    query (one condition per conversation) than the database to answer it."""
    where = " OR ".join(["(conversation_id = %s AND seq > %s)"] * len(links))
    params = [value for link in links for value in (link.conversation.pk, getattr(link.progress, progress_field))]
    return list(
        model.objects.raw(
            f"SELECT * FROM {model._meta.db_table} WHERE sender_role = %s AND ({where}) ORDER BY conversation_id, seq",
            [Message.Role.INTERROGATOR, *params],
        )
    )


def _stored(keys) -> list[StoredKey]:
    return [StoredKey(k.key, k.char or "", k.stamp, when(k.time)) for k in keys]


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(3)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _tail(path: Path, size: int = 400) -> str:
    try:
        text = path.read_bytes()[-size:].decode("utf-8", errors="replace").strip()
    except OSError:
        return ""
    return f"; last output: {text}" if text else ""
