"""Λ* on the platform against the bare engine: in-process, 1 Celery worker process, 2 of them.

    .venv/bin/python bench/lambdastar_celery.py [--episodes 1600] [--chunk 100]

Needs PostgreSQL and Redis (services mode): DATABASE_URL defaults to a scratch database
``lambdastar_bench`` on 127.0.0.1 (created and migrated if missing), REDIS_URL to Redis db 5.
Workers are real ``celery -A config worker -Q lambdastar`` processes, warmed up (Numba caches
loaded) before the clock starts. The same configuration and seed give the same scores everywhere,
which is checked. Last line: {"overhead": …, "speedup_2_workers": …, …}.
"""
import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATABASE_URL", "postgres://root@127.0.0.1:5432/lambdastar_bench")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/5")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


def ensure_database():
    import psycopg
    from urllib.parse import urlsplit

    parts = urlsplit(os.environ["DATABASE_URL"])
    name = parts.path.lstrip("/")
    with psycopg.connect(host=parts.hostname, port=parts.port or 5432, user=parts.username or "root",
                         dbname="postgres", autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def configuration(episodes, chunk):
    return {"rules": "paper", "rng": "pcg64", "episodes": episodes, "types": ["ls", "woc", "ql"], "grid": 10,
            "iterations": 50, "agents": 5, "chunk_episodes": chunk}


def bare_engine(config_dict, seed):
    from lambdastar import sweep
    from lambdastar.engine import EngineConfig, run

    (_, config), = sweep.run_configs(config_dict, seed)
    for t in config.types:  # load the compiled kernels first, as the warmed-up workers have
        run(config, t, range(0, 2))
    started = time.perf_counter()
    scores = {t: run(config, t).tolist() for t in config.types}
    return time.perf_counter() - started, scores


def launch(owner, config_dict, seed, enqueue):
    from lambdastar import services

    experiment = services.experiment_create(owner=owner, name="bench", configuration=config_dict, seed=seed)
    return services.experiment_launch(experiment_id=experiment.pk, enqueue=enqueue)


def in_process(owner, config_dict, seed):
    from lambdastar import services

    started = time.perf_counter()
    experiment = launch(owner, config_dict, seed, enqueue=False)
    assert services.experiment_execute(experiment_id=experiment.pk)
    return time.perf_counter() - started, experiment


def with_workers(owner, config_dict, seed, processes):
    from config.celery_app import app

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", "lambdastar", "-c", str(processes),
         "--pool", "prefork", "-n", f"bench{processes}@%h", "--loglevel", "WARNING", "--without-gossip",
         "--without-mingle", "--without-heartbeat"], cwd=ROOT, env=env)
    try:
        deadline = time.monotonic() + 60
        while not app.control.ping(destination=[f"bench{processes}@{os.uname().nodename}"], timeout=0.5):
            if time.monotonic() > deadline or worker.poll() is not None:
                raise RuntimeError("the worker did not start")
        warm = dict(config_dict, episodes=4 * processes, chunk_episodes=1)  # every child loads its kernels
        wait(launch(owner, warm, seed, enqueue=True))
        started = time.perf_counter()
        experiment = wait(launch(owner, config_dict, seed, enqueue=True))
        return time.perf_counter() - started, experiment
    finally:
        worker.terminate()
        worker.wait(30)


def wait(experiment, timeout=900):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        experiment.refresh_from_db()
        if experiment.status == "finished":
            return experiment
        if experiment.status in ("failed", "cancelled"):
            raise RuntimeError(f"experiment {experiment.pk} {experiment.status}: {experiment.error}")
        time.sleep(0.02)
    raise RuntimeError("timed out")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=1600)
    parser.add_argument("--chunk", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    ensure_database()
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    settings.LAMBDASTAR_QUOTA_EPISODES = 10**12
    call_command("migrate", verbosity=0)
    from config.celery_app import app
    from lambdastar import selectors

    with app.connection_for_write() as connection:
        connection.default_channel.queue_purge("lambdastar")
    owner, _ = get_user_model().objects.get_or_create(username="lambdastar-bench")
    config_dict = configuration(args.episodes, args.chunk)

    bare, expected = bare_engine(config_dict, args.seed)
    print(f"bare engine:            {bare:7.2f} s")
    inline, e0 = in_process(owner, config_dict, args.seed)
    print(f"platform, in-process:   {inline:7.2f} s  ({inline / bare - 1:+.1%})")
    one, e1 = with_workers(owner, config_dict, args.seed, 1)
    print(f"platform, 1 worker:     {one:7.2f} s  ({one / bare - 1:+.1%})")
    two, e2 = with_workers(owner, config_dict, args.seed, 2)
    print(f"platform, 2 workers:    {two:7.2f} s  (speed-up {one / two:.2f}×)")
    same = all(selectors.episode_scores(experiment=e) == {(0, t): s for t, s in expected.items()}
               for e in (e0, e1, e2))
    print(f"same scores everywhere: {same}")
    print(json.dumps({"overhead": round(one / bare - 1, 4), "overhead_in_process": round(inline / bare - 1, 4),
                      "speedup_2_workers": round(one / two, 3), "bare_s": round(bare, 3),
                      "in_process_s": round(inline, 3), "one_worker_s": round(one, 3),
                      "two_workers_s": round(two, 3), "episodes": args.episodes * 3, "chunks": -(-args.episodes // args.chunk) * 3,
                      "identical_scores": same, "cpus": os.cpu_count()}))


if __name__ == "__main__":
    main()
