"""``python -m lpp.judge``: the command of :mod:`lpp.protocol.judge` (kept here for people's scripts)."""

from lpp.protocol.judge import main

if __name__ == "__main__":
    raise SystemExit(main())
