#!/usr/bin/env python3
"""A webhook entrant for Turing Arena: a small HTTP server the platform calls with each judge message
(signed with your secret), answering {"reply": ...}. Standard library plus httpx (to register and rehearse).

    python examples/webhook_client.py --secret <secret> [--port 8765]
    python examples/webhook_client.py --secret <secret> --token <key> --register "My webhook bot" --rehearse

--register creates the webhook entry pointing at this server through the API (the platform must be allowed
to call it: ARENA_OUTBOUND_ALLOW=127.0.0.1/32 for a server on the same machine); --rehearse then starts a
rehearsal with the platform's test judge, and the client exits with a summary when the rehearsal ends.
Replace `answer()` with your own program.
"""

import argparse
import hashlib
import hmac
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx

MAX_BODY = 1_000_000


def answer(message: str, history: list[dict], persona: dict) -> str:
    """The entry itself: a reply to the judge's ``message`` (``history``: earlier turns, oldest first)."""
    if "?" in message:
        return f"Hmm, {message.rstrip('?').strip().lower()}? Let me think... I'd rather hear your answer first."
    return "I see. Tell me more." if history else "Hello there! Nice to meet you."


def verify(secret: str, headers, body: bytes, tolerance_s: int = 300) -> bool:
    """The platform's signature: HMAC-SHA256(secret, timestamp + "." + body), recent timestamps only."""
    stamp, signature = headers.get("X-Arena-Timestamp", ""), headers.get("X-Arena-Signature", "")
    if not stamp.isdigit() or abs(time.time() - int(stamp)) > tolerance_s:
        return False  # missing or stale: refuse replays
    mac = hmac.new(secret.encode(), stamp.encode() + b"." + body, hashlib.sha256)
    return hmac.compare_digest("sha256=" + mac.hexdigest(), signature)


def make_handler(secret: str, served: threading.Semaphore):
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            length = int(self.headers.get("Content-Length") or 0)
            if not 0 < length <= MAX_BODY:
                return self.send(413 if length else 400, {"error": "bad body"})
            body = self.rfile.read(length)
            if not verify(secret, self.headers, body):
                return self.send(401, {"error": "bad signature"})
            try:
                call = json.loads(body)
                reply = answer(call["message"], call.get("history", []), call.get("persona") or {})
            except (ValueError, KeyError, TypeError):
                return self.send(400, {"error": "bad request"})
            self.send(200, {"reply": reply})
            print(f"judge: {call['message']!r} -> {reply!r}", flush=True)
            served.release()

        def send(self, status: int, data: dict) -> None:
            payload = json.dumps(data).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, *args):  # quiet: the replies are printed instead
            pass

    return Handler


def register(base: str, token: str, name: str, url: str, secret: str, settings: dict, rehearse: bool) -> dict | None:
    """Registers the entry; with ``rehearse``, starts a rehearsal and returns it (its page, its progress URL)."""
    api = httpx.Client(base_url=base.rstrip("/") + "/api/v1/", headers={"Authorization": f"Token {token}"}, timeout=30)
    try:
        api.get("")
    except httpx.TransportError as exc:
        sys.exit(f"cannot reach the platform at {base} ({exc}): is it running (make run)?")
    created = api.post(
        "entries/",
        json={"display_name": name, "engine": "webhook", "settings": {"url": url, "secret": secret, **settings}},
    )
    if created.status_code != 201:
        sys.exit(f"registration refused ({created.status_code}): {created.json().get('error')}")
    entry = created.json()
    print(f"registered entry {entry['id']} ({entry['display_name']}) calling {url}", flush=True)
    if rehearse:
        started = api.post(f"entries/{entry['id']}/rehearse/", json={"judge": "bot"})
        if started.status_code != 201:
            sys.exit(f"no rehearsal ({started.status_code}): {started.json().get('error')}")
        print(f"rehearsal started: watch it at {started.json()['page']}", flush=True)
        return {**started.json(), "api": api}
    return None


def rehearsal_wait(rehearsal: dict, served: threading.Semaphore, max_replies: int) -> None:
    """Until the rehearsal ends (or ``max_replies`` calls were served): then a summary."""
    replies = 0
    while not max_replies or replies < max_replies:
        if served.acquire(timeout=1):
            replies += 1
            continue
        progress = rehearsal["api"].get(rehearsal["progress"]).json()
        if progress["status"] in ("ended", "aborted"):
            why = f" ({progress['end_reason']})" if progress.get("end_reason") else ""
            print(
                f"rehearsal {progress['status']}{why}: the judge asked {progress['questions']} question(s), "
                f"the entry answered {progress['answers']}; this server answered {replies} calls. "
                f"Transcript: {rehearsal['page']}",
                flush=True,
            )
            return


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--secret", required=True, help="the shared secret the platform signs calls with (16+ characters)"
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8765, help="0: any free port (printed)")
    parser.add_argument("--base", default="http://127.0.0.1:8000", help="the platform (default: make run's)")
    parser.add_argument("--token", help="an API key, to --register")
    parser.add_argument("--register", metavar="NAME", help="register a webhook entry calling this server")
    parser.add_argument("--settings", default="{}", help="more entry settings as JSON, e.g. '{\"think_s\": 2}'")
    parser.add_argument("--rehearse", action="store_true", help="after --register, start a rehearsal")
    parser.add_argument("--max-replies", type=int, default=0, help="stop after so many replies (default: never)")
    args = parser.parse_args(argv)
    if args.register and not args.token:
        parser.error("--register needs --token")

    served = threading.Semaphore(0)
    server = ThreadingHTTPServer((args.host, args.port), make_handler(args.secret, served))
    url = f"http://{args.host}:{server.server_address[1]}/"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(f"listening on {url}", flush=True)
    rehearsal = None
    if args.register:
        rehearsal = register(
            args.base, args.token, args.register, url, args.secret, json.loads(args.settings), args.rehearse
        )
    try:
        if rehearsal:
            rehearsal_wait(rehearsal, served, args.max_replies)
        else:
            for _ in range(args.max_replies) if args.max_replies else iter(int, 1):
                served.acquire()
    except KeyboardInterrupt:
        pass
    server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
