#!/usr/bin/env python3
"""A pull-mode entrant for Turing Arena: it long-polls the platform for judge messages awaiting its answer
and posts its replies. Standard library plus httpx.

    python examples/pull_client.py --token <key> [--base http://127.0.0.1:8000] [--entry <id>] [--rehearse]

Without --entry it answers for the first pull-mode entry of the key's owner. --rehearse starts a rehearsal
with the platform's test judge first (watch it on the page it prints), answers it, and exits with a summary
when the rehearsal ends. Replace `answer()` with your own program. The platform shows each reply after the
entry's typing delay, so answering at once is fine.
"""

import argparse
import random
import re
import sys
import time

import httpx


def answer(message: str, history: list[dict]) -> str:
    """The entry itself: a reply to the judge's ``message`` (``history``: earlier turns, oldest first)."""
    text = message.lower()
    numbers = [int(n) for n in re.findall(r"\d+", text)]
    if "plus" in text or "+" in text:
        return f"That would be {sum(numbers)}, unless I'm very tired." if numbers else "Numbers aren't my strong suit."
    if any(word in text for word in ("hello", "hi ", "hi!", "who")):
        return "Hi! I'm Sam, writing from a rather noisy café."
    if "morning" in text:
        return "Walked the dog, then far too much coffee."
    if "tea" in text or "coffee" in text:
        return "Coffee. Tea always tastes like warm water to me."
    return random.Random(message).choice(
        [
            "Good question. Let me think about that one.",
            "Honestly? I'm not sure.",
            "Why do you ask?",
        ]
    )


class Platform:
    """The entrants' API (see /api/docs/ on the platform)."""

    def __init__(self, base: str, token: str, poll_wait: float):
        self.http = httpx.Client(
            base_url=base.rstrip("/") + "/api/v1/", timeout=poll_wait + 15, headers={"Authorization": f"Token {token}"}
        )
        self.poll_wait = poll_wait

    def call(self, method: str, path: str, **kwargs) -> httpx.Response:
        while True:
            try:
                response = self.http.request(method, path, **kwargs)
            except httpx.TransportError as exc:
                sys.exit(f"cannot reach the platform at {self.http.base_url} ({exc}): is it running (make run)?")
            if response.status_code == 429:  # throttled: wait as told
                time.sleep(float(response.headers.get("Retry-After", "1")))
                continue
            if response.status_code == 401:
                sys.exit(f"the platform refused the key: {response.json().get('error')}")
            return response

    def pull_entry(self, entry_id: int | None) -> dict:
        entries = self.call("GET", "entries/").json()
        for entry in entries:
            if (entry_id is None and entry["engine"] == "pull") or entry["id"] == entry_id:
                return entry
        sys.exit(f"no pull-mode entry {entry_id or ''} of this key's owner: register one first")

    def rehearse(self, entry_id: int) -> dict:
        response = self.call("POST", f"entries/{entry_id}/rehearse/", json={"judge": "bot"})
        if response.status_code != 201:
            sys.exit(f"no rehearsal: {response.json().get('error')}")
        return response.json()

    def progress(self, url: str) -> dict:
        return self.call("GET", url).json()

    def pending(self, entry_id: int, wait: float | None = None) -> list[dict]:
        wait = self.poll_wait if wait is None else wait
        response = self.call("GET", f"entries/{entry_id}/pending/", params={"wait": wait})
        response.raise_for_status()
        return response.json()["pending"]

    def reply(self, entry_id: int, conversation: str, text: str) -> httpx.Response:
        self.call("POST", f"entries/{entry_id}/typing/", json={"conversation": conversation})
        return self.call("POST", f"entries/{entry_id}/replies/", json={"conversation": conversation, "text": text})


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", default="http://127.0.0.1:8000", help="the platform (default: make run's)")
    parser.add_argument("--token", required=True, help="an API key (the API keys page, or seed_demo's output)")
    parser.add_argument("--entry", type=int, help="the pull-mode entry's id (default: your first one)")
    parser.add_argument("--rehearse", action="store_true", help="start a rehearsal with the test judge first")
    parser.add_argument("--wait", type=float, default=20, help="seconds per long poll (default 20)")
    parser.add_argument("--max-replies", type=int, default=0, help="stop after so many replies (default: never)")
    args = parser.parse_args(argv)

    platform = Platform(args.base, args.token, args.wait)
    entry = platform.pull_entry(args.entry)
    print(f"answering for entry {entry['id']} ({entry['display_name']})", flush=True)
    rehearsal = None
    if args.rehearse:
        rehearsal = platform.rehearse(entry["id"])
        print(f"rehearsal started: watch it at {rehearsal['page']}", flush=True)
    replies = refused = 0
    while not args.max_replies or replies < args.max_replies:
        # while rehearsing, short polls: the client looks after each whether the rehearsal has ended
        for item in platform.pending(entry["id"], wait=min(args.wait, 2) if rehearsal else None):
            text = answer(item["message"], item["history"])
            response = platform.reply(entry["id"], item["conversation"], text)
            if response.status_code == 202:
                replies += 1
                print(f"judge: {item['message']!r} -> {response.json()['text']!r}", flush=True)
            else:  # 409: answered meanwhile or the conversation is over; 400: a reply the rules refuse
                refused += 1
                print(f"reply refused ({response.status_code}): {response.json().get('error')}", flush=True)
        if rehearsal:
            progress = platform.progress(rehearsal["progress"])
            if progress["status"] in ("ended", "aborted"):
                print(rehearsal_summary(progress, replies, refused, rehearsal["page"]), flush=True)
                return 0
    return 0


def rehearsal_summary(progress: dict, replies: int, refused: int, page: str) -> str:
    why = f" ({progress['end_reason']})" if progress.get("end_reason") else ""
    return (
        f"rehearsal {progress['status']}{why}: the judge asked {progress['questions']} question(s), "
        f"the entry answered {progress['answers']}; this client sent {replies} replies, {refused} refused. "
        f"Transcript: {page}"
    )


if __name__ == "__main__":
    sys.exit(main())
