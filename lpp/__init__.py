"""Loebner Prize Protocol (LPP1, the communications-directory protocol of 2009–2016).

Pure Python, no Django: key-name codec (:mod:`lpp.keys`), stamps
(:mod:`lpp.stamps`), data model (:mod:`lpp.model`), lines and utterances
(:mod:`lpp.lines`), JComm logs (:mod:`lpp.logs`), the directory transport and
watcher (:mod:`lpp.transport`), a typing rhythm (:mod:`lpp.typing_model`) and
the tools ``python -m lpp.judge``, ``lpp.replay`` and ``lpp.entry``.
"""

from lpp.model import Keystroke, Transcript, Utterance

__all__ = ["Keystroke", "Transcript", "Utterance"]
