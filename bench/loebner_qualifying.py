"""Loebner qualifying: 16 entries asked at once, beside the same entries asked one after another.

    .venv/bin/python -m bench.loebner_qualifying [--entries 16] [--delay 0.5] [--questions 12]

Embedded default in a throwaway SQLite file (tasks run in-process on threads); with --postgres URL, a
throwaway PostgreSQL database on that server instead (tasks still in-process on threads). Each entry is a webhook
entry whose local endpoint answers after --delay seconds; the contest's question set is the shipped
2009 set (12 questions) cut to --questions. "concurrent": qualifying_start (one task per entry, all at
once: the platform's way); "serial" (the baseline): the same asking service called for one entry after
another. The LAST line is one JSON object: {"entries", "questions", "delay_s", "concurrent_s", "serial_s",
"slowest_entry_s", "speedup"}.
"""

import argparse
import datetime as dt
import json
import os
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def endpoint(delay_s: float, requests: list | None = None) -> ThreadingHTTPServer:
    """A local webhook endpoint (serving on a thread) that answers each request after ``delay_s``
    seconds, naming the conversation and how many turns it was sent; ``requests`` collects the bodies."""
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            if requests is not None:
                with lock:
                    requests.append(body)
            time.sleep(delay_s)
            reply = f"{body['conversation'][-6:]} heard {len(body['history'])} turns: {body['message'][:40]}"
            data = json.dumps({"reply": reply}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def contest(name: str, url: str, entries: int, questions: int):
    from django.utils import timezone

    from arena.models import Entry
    from tournaments.loebner import services
    from tournaments.loebner.models import Contest, QuestionSet

    full = QuestionSet.objects.get(name__startswith="2009")
    cut = QuestionSet.objects.create(name=f"{name} questions")
    for q in full.questions.order_by("order")[:questions]:
        q.pk, q.question_set = None, cut
        q.save()
    c = Contest.objects.create(
        name=name, format_name="2009-rules", status="open", question_set=cut, qualifying_limit=entries
    )
    from django.contrib.auth import get_user_model

    owner = get_user_model().objects.create(username=f"{name}-owner")
    for i in range(entries):
        entry = Entry.objects.create(
            owner=owner,
            display_name=f"{name} {i}",
            engine="webhook",
            settings={"url": url, "secret": "s" * 20, "timeout_s": 30, "think_s": 0, "per_char_s": 0, "jitter": 0},
        )
        item = services.contest_enter(
            contest_id=c.pk,
            entry_id=entry.pk,
            entrant=owner,
            people=[f"{name} {i}"],
            rights_statement=True,
            now=timezone.now() - dt.timedelta(minutes=entries - i),
        )
        services.entry_check(contest_entry_id=item.pk, compliant=True)
    services.contest_close(contest_id=c.pk)
    return c


def wait_done(c, n: int) -> None:
    from tournaments.loebner.models import QualifyingSubject

    while QualifyingSubject.objects.filter(contest=c, status="done").count() < n:
        time.sleep(0.02)


def run(args) -> dict:
    from bench.harness import Throwaway

    os.environ.pop("DATABASE_URL", None)
    os.environ.pop("REDIS_URL", None)
    database = None
    if args.postgres:
        database = Throwaway(args.postgres)
        database.create()
        os.environ["DATABASE_URL"] = database.url
    try:
        return measure(args)
    finally:
        if database is not None:
            from django.db import connections

            connections.close_all()
            database.drop()


def measure(args) -> dict:
    os.environ["ARENA_DATA_DIR"] = tempfile.mkdtemp(prefix="bench-loebner-")
    os.environ["ARENA_OUTBOUND_ALLOW"] = "127.0.0.1/32"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", interactive=False, verbosity=0)
    from tournaments.loebner import services
    from tournaments.loebner.models import QualifyingAnswer, QualifyingSubject

    server = endpoint(args.delay)
    url = f"http://127.0.0.1:{server.server_port}/hook"
    concurrent = contest("concurrent", url, args.entries, args.questions)
    start = time.perf_counter()
    services.qualifying_start(contest_id=concurrent.pk)
    wait_done(concurrent, args.entries)
    concurrent_s = time.perf_counter() - start
    slowest = max(
        (s.finished_at - s.started_at).total_seconds() for s in QualifyingSubject.objects.filter(contest=concurrent)
    )
    serial = contest("serial", url, args.entries, args.questions)
    start = time.perf_counter()
    for item in serial.entries.filter(qualified=True):
        services.qualifying_ask(subject_id=QualifyingSubject.objects.create(contest=serial, contest_entry=item).pk)
    serial_s = time.perf_counter() - start
    answered = QualifyingAnswer.objects.filter(subject__contest=concurrent, ok=True).count()
    server.shutdown()
    print(
        f"{args.entries} entries x {args.questions} questions, {args.delay} s per answer: "
        f"concurrent {concurrent_s:.2f} s "
        f"(slowest entry {slowest:.2f} s, {answered} answers), serial {serial_s:.2f} s",
        file=sys.stderr,
    )
    return {
        "database": "postgresql" if args.postgres else "sqlite",
        "entries": args.entries,
        "questions": args.questions,
        "delay_s": args.delay,
        "concurrent_s": round(concurrent_s, 3),
        "serial_s": round(serial_s, 3),
        "slowest_entry_s": round(slowest, 3),
        "answers": answered,
        "speedup": round(serial_s / concurrent_s, 1),
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=16)
    parser.add_argument("--delay", type=float, default=0.5)
    parser.add_argument("--questions", type=int, default=12)
    parser.add_argument("--postgres", metavar="URL", help="e.g. postgres://root@127.0.0.1:5432/root")
    from bench.harness import main
    from bench.results import add_options

    args = add_options(parser).parse_args()
    sys.exit(main("loebner_qualifying", lambda: run(args), args))
