"""Work a parallel run does once, in processes of its own, while its test processes start.

The run's controlling process (pytest-xdist's, which runs no test) starts each piece of work as a
command before it starts the test processes, and records its outcome, once the command exits, in a file
the test processes find through the environment they inherit. A test process that needs the work waits
for that file: the work is then done once, not once in every test process, and a failed piece of work
leaves each process to do without it (or do it itself), as a run without it would.

- the template database (tests/template_db.py): each test process's database is a copy of it;
- the compiled Λ* kernels (``python -m lambdastar.engine warm``): numba's on-disk cache, which every test
  that runs the engine (and every engine process those tests start) loads instead of compiling.
"""

import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

WAIT_S = 600


class Prebuild:
    """One piece of work: its command, and the status file its outcome is written to ("ok" or "failed")."""

    def __init__(self, key, argv):
        self.env = f"ARENA_PREBUILD_{key.upper()}"
        fd, status = tempfile.mkstemp(prefix=f"arena-{key}-", suffix=".status")
        os.close(fd)
        os.unlink(status)  # its appearance says the work is done
        self.status = Path(status)
        os.environ[self.env] = status
        self.process = subprocess.Popen(
            [sys.executable, *argv], env=os.environ.copy(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        self.watcher = threading.Thread(target=self._record, daemon=True)
        self.watcher.start()

    def _record(self):
        _, err = self.process.communicate()
        outcome = "ok" if self.process.returncode == 0 else "failed"
        if outcome != "ok":
            sys.stderr.write(f"{self.env}: {err.decode(errors='replace')[-2000:]}\n")
        partial = self.status.with_suffix(".tmp")
        partial.write_text(outcome)
        partial.replace(self.status)  # whole, or not there

    def finish(self):
        """At the end of the run: stop the work if it is still going, and forget its outcome."""
        if self.process.poll() is None:
            self.process.kill()
        self.watcher.join(30)
        self.status.unlink(missing_ok=True)


def done(key, timeout=WAIT_S):
    """In a test process: wait for the piece of work (if the run started it); whether it succeeded."""
    status = os.environ.get(f"ARENA_PREBUILD_{key.upper()}")
    if not status:
        return False
    path, deadline = Path(status), time.monotonic() + timeout
    while not path.exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    return path.exists() and path.read_text() == "ok"
