"""Arena interrogations written as JComm 2012 logs (lpp.protocol.logs), and a Loebner contest's published
meetings all together: the transcripts of a contest in the Loebner Prize's own log format, as files
(``manage.py lpp_export_contest``) or one zip (the contest's results page).  People are named only by the
contest's labels: judge 1 (of J1), program E1, files R<round>-J<judge>-E<entry>-C<confederate>.log.

Keystroke-mode conversations give their stored keys (arena.Keystroke, with their times); others are
typed out from their messages, one key per character and Return at the end, stamped at the message's
time. lpp may import tournaments (the contest's meetings); tournaments may not import lpp, hence here.
"""

import io
import zipfile

from arena.models import Interrogation, Keystroke, Message
from lpp.protocol.keys import names_for_text
from lpp.protocol.logs import format_2012
from lpp.protocol.model import JUDGE, OTHER, Transcript
from lpp.protocol.model import Keystroke as LogKey
from lpp.protocol.stamps import format_stamp


def _micros(when) -> int:
    return int(when.timestamp() * 1_000_000)


def _keys(conversation) -> list[tuple[int, str, str, str]]:
    """(micros, sender, side, key name) of one conversation, in order."""
    stored = list(Keystroke.objects.filter(conversation=conversation).order_by("seq"))
    if stored:
        return [
            (
                _micros(k.time) if k.time else 0,
                JUDGE if k.sender_role == Message.Role.INTERROGATOR else OTHER,
                conversation.side,
                k.key,
            )
            for k in stored
        ]
    keys = []
    for message in conversation.messages.order_by("seq"):
        sender = JUDGE if message.sender_role == Message.Role.INTERROGATOR else OTHER
        start = _micros(message.created_at)
        names = [*names_for_text(message.text.replace("\n", " ")), "Return"]
        keys += [(start + i, sender, conversation.side, name) for i, name in enumerate(names)]
    return keys


def interrogation_log(interrogation: Interrogation, *, judge: str, round_: str, program: str = "") -> str:
    """One three-party interrogation as a JComm 2012 log (``Left =human|program`` from its sides)."""
    conversations = list(interrogation.conversations.select_related("witness_entry"))
    machine = next((c for c in conversations if c.witness_entry_id), None)
    left = "" if machine is None else ("program" if machine.side == "left" else "human")
    keys = sorted(k for c in conversations for k in _keys(c))
    last = -1
    stamped = []
    for micros, sender, side, name in keys:
        last = max(micros, last + 1)  # strictly increasing, as JComm's stamps
        stamped.append(LogKey(sender=sender, key=name, char=None, stamp=format_stamp(last), time=last / 1e6, side=side))
    transcript = Transcript(
        program=program or (machine.witness_entry.display_name.replace(" ", "_") if machine else ""),
        judge=judge,
        round=round_,
        left=left,
        keystrokes=stamped,
    )
    return format_2012(transcript)


def contest_logs(*, contest_id: int) -> dict[str, str]:
    """``{file name: log}`` for every published meeting of a Loebner contest."""
    from tournaments.loebner.models import Contest
    from tournaments.loebner.selectors import contest_meetings

    contest = Contest.objects.get(pk=contest_id)
    logs = {}
    for meeting in contest_meetings(contest=contest):
        interrogation = meeting.interrogation
        if interrogation is None or not interrogation.is_published:
            continue
        name = f"R{meeting.round.number}-{meeting.judge.label}-{meeting.entry.label}-{meeting.confederate.label}.log"
        logs[name] = interrogation_log(
            interrogation,
            judge=meeting.judge.label.removeprefix("J"),
            round_=str(meeting.round.number),
            program=meeting.entry.label,
        )
    return logs


NOTHING_PUBLISHED = (
    "No meeting of this contest is published yet. Its JComm logs are in this archive, one file per meeting,\n"
    "once the contest's results are published.\n"
)


def contest_logs_zip(*, contest_id: int) -> bytes:
    """The contest's logs (``contest_logs``) in one zip archive, one file per published meeting; before
    any is published, a README.txt that says so (an empty archive would look broken)."""
    out = io.BytesIO()
    logs = contest_logs(contest_id=contest_id)
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, text in sorted(logs.items()):
            archive.writestr(name, text.encode("utf-8"))
        if not logs:
            archive.writestr("README.txt", NOTHING_PUBLISHED)
    return out.getvalue()
