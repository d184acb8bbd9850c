"""Loebner Prize Protocol (LPP1, the communications-directory protocol of 2009–2016).

Pure Python, no Django: key-name codec (:mod:`lpp.protocol.keys`), stamps
(:mod:`lpp.protocol.stamps`), data model (:mod:`lpp.protocol.model`), lines and
utterances (:mod:`lpp.protocol.lines`), JComm logs (:mod:`lpp.protocol.logs`), the
directory transport and watcher (:mod:`lpp.protocol.transport`), and the tools'
pure parts: argument helpers (:mod:`lpp.protocol.cli`), the terminal judge
(:mod:`lpp.protocol.judge`), the log replay (:mod:`lpp.protocol.replay`) and an
entry's reply loop (:mod:`lpp.protocol.entry`). The typing rhythm is the platform's
one typing model, :class:`bots.typing_delay.TypingModel` (the only module of
``bots`` this package imports), with the LPP tools' defaults in
:data:`lpp.protocol.transport.LPP_TYPING`.
"""

from lpp.protocol.model import Keystroke, Transcript, Utterance

__all__ = ["Keystroke", "Transcript", "Utterance"]
