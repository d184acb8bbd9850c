"""Loebner Prize Protocol on the platform.

:mod:`lpp.protocol` is the protocol itself, without Django (keys, stamps, logs,
the communications directory, the tools' pure parts). Here is its Django side:
the JComm log importer (:mod:`lpp.importer`, ``manage.py lpp_import``), the LPP1
bridge for legacy entry programs (:mod:`lpp.bridge`, ``manage.py lpp_bridge``),
their models and admin, and the command-line tools ``python -m lpp.judge``,
``python -m lpp.replay`` (thin commands of :mod:`lpp.protocol`) and
``python -m lpp.entry`` (a bot engine, through the platform's engine gateway, as
an LPP entry).
"""
