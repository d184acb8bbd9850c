"""The order in which a parallel run hands out its test files: longest first, from measured durations.

pytest-xdist's ``--dist loadfile`` gives each test process one file at a time, in the collection's
order. Files that take a minute (a browser sweep, a fuzzed API, a benchmark's smoke test) handed out
last keep one process busy while the others have finished; handed out first, the short files fill the
gaps at the end (longest processing time first). The durations are seconds per file measured on this
machine kind (``tests/durations.json``, refreshed with ``make test PYTEST_ARGS=--record-durations``); a
file not in it counts a second a test.

The files whose tests need the compiled Λ* kernels go out once the others have kept every process busy
for KERNELS_AFTER_S: a fresh checkout compiles the kernels (two to three minutes on two cores beside the
tests, tests/prebuild.py) while the other files run, instead of a process waiting for them.
"""

import json
from collections import defaultdict
from pathlib import Path

DURATIONS = Path(__file__).with_name("durations.json")
UNMEASURED_S_PER_TEST = 1.0
KERNELS_AFTER_S = 180.0


def _path(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def load() -> dict[str, float]:
    try:
        return {path: float(seconds) for path, seconds in json.loads(DURATIONS.read_text()).items()}
    except (OSError, ValueError, AttributeError):
        return {}


def order(items: list, durations: dict[str, float], processes: int = 1) -> list:
    """``items`` grouped by file (a file's tests keep their order), the files longest first, those that
    wait for the compiled kernels once ``processes`` processes have had KERNELS_AFTER_S of other work. The
    same input gives the same order in every test process, as xdist requires."""
    files: dict[str, list] = defaultdict(list)
    for item in items:
        files[_path(item.nodeid)].append(item)

    def seconds(path: str) -> float:
        return durations.get(path, UNMEASURED_S_PER_TEST * len(files[path]))

    def waits(path: str) -> bool:
        return any("compiled_kernels" in getattr(item, "fixturenames", ()) for item in files[path])

    longest_first = sorted(files, key=lambda path: (-seconds(path), path))
    plain = [path for path in longest_first if not waits(path)]
    later = [path for path in longest_first if waits(path)]
    at, work = len(plain), 0.0
    for position, path in enumerate(plain):
        if work >= KERNELS_AFTER_S * processes:
            at = position
            break
        work += seconds(path)
    return [item for path in plain[:at] + later + plain[at:] for item in files[path]]


class Recorder:
    """``--record-durations``: the run's seconds per file (setup, call and teardown of each test), merged
    into tests/durations.json at the end of a run in which every test passed (a file since removed drops
    out)."""

    def __init__(self):
        self.seconds: dict[str, float] = defaultdict(float)

    def pytest_runtest_logreport(self, report):
        self.seconds[_path(report.nodeid)] += report.duration

    def pytest_sessionfinish(self, session, exitstatus):
        if exitstatus != 0 or not self.seconds:
            return
        table = load() | {path: round(seconds, 1) for path, seconds in self.seconds.items()}
        root = DURATIONS.parent.parent
        table = {path: seconds for path, seconds in sorted(table.items()) if (root / path).exists()}
        DURATIONS.write_text(json.dumps(table, indent=0) + "\n")
