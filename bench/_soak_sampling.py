"""The soak benchmark's resource sampling (bench.soak): PostgreSQL backends, Redis connections, daphne's
websockets, resident memory and file descriptors of a process tree, and whether each stays flat."""

from __future__ import annotations

import os
import time
from pathlib import Path

from bench import harness

log = harness.logger("soak")

# metric: (absolute, relative) tolerance of its drift over the run
TOLERANCE = {
    "pg": (2, 0.10),
    "redis": (2, 0.10),
    "ws": (2, 0.10),
    "daphne_mb": (8.0, 0.05),
    "worker_mb": (8.0, 0.05),
    "daphne_fds": (4, 0.10),
    "worker_fds": (4, 0.10),
}
COLUMNS = [
    "min",
    "pg",
    "redis",
    "redis_all",
    "ws",
    "daphne_mb",
    "worker_mb",
    "daphne_fds",
    "worker_fds",
    "messages",
    "replies",
    "trades",
]


# --- sampling ------------------------------------------------------------------------------------------
def process_tree(pid: int) -> list[int]:
    pids, todo = [], [pid]
    while todo:
        p = todo.pop()
        pids.append(p)
        for task in Path(f"/proc/{p}/task").glob("*"):
            try:
                todo += [int(c) for c in (task / "children").read_text().split()]
            except OSError:
                pass
    return pids


def rss_mb(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total / 1024


def socket_inodes(pids: list[int]) -> tuple[int, set[str]]:
    """(open file descriptors, inodes of their sockets)."""
    fds, inodes = 0, set()
    for pid in pids:
        try:
            names = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        fds += len(names)
        for name in names:
            try:
                target = os.readlink(f"/proc/{pid}/fd/{name}")
            except OSError:
                continue
            if target.startswith("socket:["):
                inodes.add(target[8:-1])
    return fds, inodes


def tcp_table() -> dict[str, tuple[int, int, str]]:
    """inode -> (local port, remote port, state) of every TCP socket of this network namespace."""
    table = {}
    for name in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(name).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            local, remote, state, inode = fields[1], fields[2], fields[3], fields[9]
            table[inode] = (int(local.rsplit(":", 1)[1], 16), int(remote.rsplit(":", 1)[1], 16), state)
    return table


ESTABLISHED = "01"


class Sampler:
    def __init__(self, services, database: str, worker, tally: dict):
        import psycopg
        import redis

        self.services, self.database, self.worker, self.tally = services, database, worker, tally
        self.pg = psycopg.connect(**harness.pg_conninfo(services.server_url), autocommit=True)
        self.redis = redis.Redis.from_url(services.redis_url, socket_connect_timeout=3, socket_timeout=5)
        self.redis_port = self.redis.connection_pool.connection_kwargs.get("port", 6379)
        self.daphne_port = services.daphne.port
        self.started = time.monotonic()
        self.samples: list[dict] = []

    def sample(self) -> dict:
        (pg,) = self.pg.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s", [self.database]).fetchone()
        redis_all = int(self.redis.info("clients")["connected_clients"])
        table = tcp_table()
        daphne_pids = process_tree(self.services.daphne.process.pid)
        worker_pids = process_tree(self.worker.process.pid)
        daphne_fds, daphne_socks = socket_inodes(daphne_pids)
        worker_fds, worker_socks = socket_inodes(worker_pids)
        ours = [table[i] for i in daphne_socks | worker_socks if i in table]
        row = {
            "min": round((time.monotonic() - self.started) / 60, 2),
            "pg": pg,
            "redis": sum(1 for _, remote, st in ours if remote == self.redis_port and st == ESTABLISHED),
            "redis_all": redis_all,
            "ws": sum(
                1 for i in daphne_socks if i in table and table[i][0] == self.daphne_port and table[i][2] == ESTABLISHED
            ),
            "daphne_mb": round(rss_mb(daphne_pids), 1),
            "worker_mb": round(rss_mb(worker_pids), 1),
            "daphne_fds": daphne_fds,
            "worker_fds": worker_fds,
            "messages": self.tally["messages_delivered"],
            "replies": self.tally["bot_replies"],
            "trades": self.tally["trades"],
        }
        self.samples.append(row)
        log(" ".join(f"{k}={v}" for k, v in row.items()))
        return row

    def close(self) -> None:
        self.pg.close()
        self.redis.close()


def slope(xs: list[float], ys: list[float]) -> float:
    """Least-squares slope of ys over xs (0 with fewer than two distinct xs)."""
    n = len(xs)
    if n < 2:
        return 0.0
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx else 0.0


def flatness(samples: list[dict]) -> dict:
    """Per metric: slope per minute and drift over the run (after the first sample), tolerance, flat."""
    kept = samples[1:] if len(samples) > 2 else samples
    xs = [s["min"] for s in kept]
    span = (xs[-1] - xs[0]) if len(xs) > 1 else 0.0
    result = {}
    for metric, (absolute, relative) in TOLERANCE.items():
        ys = [float(s[metric]) for s in kept]
        per_min = slope(xs, ys)
        mean = sum(ys) / len(ys)
        allowed = max(absolute, relative * mean)
        drift = per_min * span
        result[metric] = {
            "slope_per_min": round(per_min, 3),
            "drift": round(drift, 2),
            "allowed": round(allowed, 2),
            "flat": abs(drift) <= allowed,
        }
    return result


def table(samples: list[dict]) -> str:
    widths = {c: max(len(c), *(len(str(s[c])) for s in samples)) for c in COLUMNS}
    lines = ["  ".join(c.rjust(widths[c]) for c in COLUMNS)]
    lines += ["  ".join(str(s[c]).rjust(widths[c]) for c in COLUMNS) for s in samples]
    return "\n".join(lines)


# --- the run -----------------------------------------------------------------------------------------
