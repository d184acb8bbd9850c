"""Bridge a legacy LPP entry program into the platform's live conversations.

For each running conversation whose witness is the entry, the bridge starts one
copy of the program on its own communications directory (``DIR/<public id>/``),
writes each new interrogator message there as ``.judge`` keys, reads the
program's ``.other`` keys back, stores every keystroke (``arena.Keystroke``),
segments them into utterances (``lpp.lines``) and posts each as the witness's
message (``message_post(user=None)``). ``Bridge.step()`` does one round of that
and says whether it did work; progress lives in the database (``BridgeLink``),
so a new Bridge neither re-sends a judge message nor loses program keys that
were read but not yet posted. A program that exits or stays silent is logged
and reported in ``BridgeStatus`` (the admin), never to the judge.
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

from arena.errors import Closed, InvalidInput
from arena.models import Conversation, Entry, Keystroke, Message, Status
from arena.services import keystrokes_store, message_post
from arena.services.keystrokes import Key as StoredKey
from lpp.importer import when
from lpp.keys import name_for
from lpp.lines import Segmenter
from lpp.model import JUDGE, OTHER
from lpp.model import Keystroke as Key
from lpp.models import BridgeLink, BridgeStatus
from lpp.transport import CommDir
from lpp.typing_model import TypingModel

log = logging.getLogger("lpp.bridge")
INSTANT = TypingModel(think_s=0.0, per_char_s=0.0, word_pause_s=0.0, jitter=0.0)
State = BridgeStatus.State


@dataclass
class _Link:
    conversation: Conversation
    comm: CommDir
    log_path: Path
    segmenter: Segmenter
    process: subprocess.Popen | None = None
    restart_at: float = 0.0
    waiting_since: float | None = None  # a judge message is unanswered since then
    seq_of: dict = field(default_factory=dict)  # id(lpp key) -> Keystroke.seq


class Bridge:
    def __init__(self, entry: Entry, command: str, directory, *, silence_s: float = 30.0,
                 idle_s: float = 3.0, restart_s: float = 5.0, clock=time.time) -> None:
        self.entry, self.command = entry, command
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.silence_s, self.idle_s, self.restart_s, self.clock = silence_s, idle_s, restart_s, clock
        self.links: dict[int, _Link] = {}
        self.status, _ = BridgeStatus.objects.get_or_create(entry=entry)
        self._report(command=command)

    # ------------------------------------------------------------------ loop
    def run(self, stop: threading.Event, poll_s: float = 0.1) -> None:
        """Step until ``stop`` is set (SIGTERM: the current step finishes first)."""
        try:
            while not stop.is_set():
                if not self.step():
                    stop.wait(poll_s)
        finally:
            self.close()

    def step(self) -> bool:
        running = {c.pk: c for c in Conversation.objects.filter(
            witness_entry=self.entry, status=Status.RUNNING, interrogation__status=Status.RUNNING
        ).select_related("interrogation")}
        did = False
        for pk in set(self.links) - set(running):
            self._drop(pk)
            did = True
        for pk, conversation in running.items():
            link = self.links.get(pk) or self._open(conversation)
            did |= self._keep_alive(link)
            did |= self._forward(link)
            did |= self._collect(link)
            self._check_silence(link)
        if not running and self.status.state == State.OK:
            self._report(state=State.IDLE)
        self._report(last_seen=timezone.now())
        return did

    def close(self) -> None:
        for pk in list(self.links):
            self._drop(pk)
        self._report(state=State.STOPPED, last_seen=timezone.now())

    # ------------------------------------------------------------ conversations
    def _open(self, conversation: Conversation) -> _Link:
        path = self.directory / str(conversation.public_id)
        path.mkdir(exist_ok=True)
        link = self.links[conversation.pk] = _Link(
            conversation, CommDir(path, side=JUDGE, clock=self.clock, sleep=time.sleep),
            self.directory / f"{conversation.public_id}.log", Segmenter(idle_timeout=self.idle_s))
        progress, _ = BridgeLink.objects.get_or_create(conversation=conversation)
        # program keys read before a restart but not yet posted: open the line again
        for row in conversation.keystrokes.filter(sender_role=Message.Role.WITNESS,
                                                  seq__gt=progress.posted_keystroke_seq).order_by("seq"):
            key = Key(sender=OTHER, key=row.key, char=row.char or None, stamp=row.stamp,
                      time=self.clock())
            link.seq_of[id(key)] = row.seq
            link.segmenter.feed(key)
        return link

    def _drop(self, pk: int) -> None:
        link = self.links.pop(pk)
        if link.process is not None:
            _stop(link.process)

    def _keep_alive(self, link: _Link) -> bool:
        if link.process is not None and link.process.poll() is None:
            return False
        if link.process is not None:
            code, link.process = link.process.returncode, None
            link.restart_at = self.clock() + self.restart_s
            self._problem(State.CRASHED, f"program exited with code {code} in conversation "
                                         f"{link.conversation.pk}{_tail(link.log_path)}")
            return True
        if self.clock() < link.restart_at:
            return False
        argv = shlex.split(self.command)
        argv = [a.replace("{dir}", str(link.comm.path)) for a in argv] if "{dir}" in self.command \
            else argv + [str(link.comm.path)]
        try:
            with link.log_path.open("ab") as out:
                link.process = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT,
                                                stdin=subprocess.DEVNULL, start_new_session=True)
        except OSError as error:
            link.restart_at = self.clock() + self.restart_s
            self._problem(State.CRASHED, f"cannot start {argv[0]!r}: {error}")
            return True
        log.info("entry %s: started %s (pid %s)", self.entry.pk, argv, link.process.pid)
        if self.status.state in (State.IDLE, State.STOPPED):
            self._report(state=State.OK)
        return True

    # ------------------------------------------------------------------ judge -> program
    def _forward(self, link: _Link) -> bool:
        if link.conversation.interrogation.keystroke_mode:
            return self._forward_keys(link)
        progress = BridgeLink.objects.get(conversation=link.conversation)
        pending = list(link.conversation.messages.filter(
            sender_role=Message.Role.INTERROGATOR, seq__gt=progress.judge_seq).order_by("seq"))
        for message in pending:
            with transaction.atomic():
                keys = link.comm.send_text(message.text, INSTANT)
                self._store(link.conversation, Message.Role.INTERROGATOR, keys)
                BridgeLink.objects.filter(pk=progress.pk).update(judge_seq=message.seq)
            link.waiting_since = link.waiting_since or self.clock()
        return bool(pending)

    def _forward_keys(self, link: _Link) -> bool:
        """Keystroke mode: the judge's keys, stored as typed in the browser, go to the program one
        by one as they come (BackSpace included), as JComm sent them."""
        progress = BridgeLink.objects.get(conversation=link.conversation)
        pending = list(link.conversation.keystrokes.filter(
            sender_role=Message.Role.INTERROGATOR, seq__gt=progress.judge_keystroke_seq).order_by("seq"))
        for row in pending:
            try:
                name = row.key if row.key in ("BackSpace", "Return") else name_for(row.char)
            except ValueError:  # no LPP key for it (say, a non-ASCII letter): the program never sees it
                log.warning("entry %s: judge key %r has no LPP name, not sent", self.entry.pk, row.char)
                continue
            link.comm.send_key(name)
            if row.key == "Return":
                link.waiting_since = link.waiting_since or self.clock()
        if pending:
            BridgeLink.objects.filter(pk=progress.pk).update(judge_keystroke_seq=pending[-1].seq)
        return bool(pending)

    # ------------------------------------------------------------------ program -> judge
    def _collect(self, link: _Link) -> bool:
        keys = link.comm.read()
        now = self.clock()
        if keys:
            rows = self._store(link.conversation, Message.Role.WITNESS, keys)
            link.waiting_since = None
            self._report(last_output_at=timezone.now(), **({"state": State.OK}
                         if self.status.state in (State.SILENT, State.CRASHED, State.IDLE) else {}))
        finished = []
        for key, row in zip(keys, rows if keys else ()):
            key = Key(sender=OTHER, key=key.key, char=key.char, stamp=key.stamp, time=now)
            link.seq_of[id(key)] = row.seq
            finished += link.segmenter.feed(key)
        finished += link.segmenter.expire(now)
        for utterance in finished:
            self._post(link, utterance)
        return bool(keys or finished)

    def _post(self, link: _Link, utterance) -> None:
        last_seq = link.seq_of.get(id(utterance.keystrokes[-1]), 0)
        for key in utterance.keystrokes:
            link.seq_of.pop(id(key), None)
        with transaction.atomic():
            try:
                message_post(conversation_id=link.conversation.pk, sender_role=Message.Role.WITNESS,
                             text=utterance.text, user=None)
            except Closed:
                pass  # time ran out while the program typed: dropped, as a human's line would be
            except InvalidInput as error:
                self._problem(self.status.state, f"reply not posted: {error}")
            BridgeLink.objects.filter(conversation=link.conversation).update(posted_keystroke_seq=last_seq)

    def _check_silence(self, link: _Link) -> None:
        if link.waiting_since is not None and self.clock() - link.waiting_since > self.silence_s:
            link.waiting_since = None  # reported once per unanswered message
            self._problem(State.SILENT, f"no answer {self.silence_s:g} s after the judge's message "
                                        f"in conversation {link.conversation.pk}")

    # ------------------------------------------------------------------ records
    def _store(self, conversation: Conversation, role: str, keys) -> list[Keystroke]:
        """Store the keys and stream them to the other side's page as they are typed."""
        return keystrokes_store(conversation=conversation, sender_role=role, keys=[
            StoredKey(k.key, k.char or "", k.stamp, when(k.time)) for k in keys])

    def _problem(self, state: str, message: str) -> None:
        log.warning("entry %s (%s): %s", self.entry.pk, self.entry, message)
        self._report(state=state, last_error=message, last_error_at=timezone.now())

    def _report(self, **fields) -> None:
        for name, value in fields.items():
            setattr(self.status, name, value)
        BridgeStatus.objects.filter(pk=self.status.pk).update(**fields)


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
