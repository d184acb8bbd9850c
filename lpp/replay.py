"""``python -m lpp.replay``: the command of :mod:`lpp.protocol.replay` (kept here for people's scripts)."""

from lpp.protocol.replay import main

if __name__ == "__main__":
    raise SystemExit(main())
