"""Loebner Prize Protocol on the platform.

:mod:`lpp.protocol` is the protocol itself, without Django (keys, stamps, logs,
the communications directory, the tools' pure parts). Here is its Django side:
the importer of JComm logs, the LPP2 reference server's round logs and text transcripts
(:mod:`lpp.importer`, :mod:`lpp.session_import`, ``manage.py lpp_import``), the LPP1
bridge for legacy entry programs (:mod:`lpp.bridge`, ``manage.py lpp_bridge``),
their models and admin, and the command-line tool ``python -m lpp.entry`` (a bot
engine, through the platform's engine gateway, as an LPP entry). The terminal judge
the log replay and the reading's fidelity counts need no Django: ``python -m lpp.protocol.judge``,
``python -m lpp.protocol.replay`` and ``python -m lpp.protocol.fidelity``.
"""
