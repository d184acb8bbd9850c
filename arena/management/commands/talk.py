"""Chat with any engine, or any entry's engine, from a terminal.

    python manage.py talk eliza "I feel tired"              # one message, one reply
    python manage.py talk 3 "Hello"                         # entry 3, with its settings
    python manage.py talk llm --engine-settings '{"base_url": "http://127.0.0.1:11434/v1", "model": "llama3.1"}'
    python manage.py talk learner                           # interactive: one line per message, Ctrl-D ends

Replies go through the same cleaning rules as in a conversation; no typing delay, nothing is stored.
Engines that call out reach public addresses only: a server on this machine or the organisers' network
needs its range in ARENA_OUTBOUND_ALLOW (e.g. ARENA_OUTBOUND_ALLOW=127.0.0.1/32 for the llm line above).
"""

import json
import sys
import time
import uuid

from django.core.management.base import BaseCommand, CommandError

from arena.models import Entry


class Command(BaseCommand):
    help = "Talk to a bot engine or an entry: one message, or lines read from stdin."

    def add_arguments(self, parser):
        parser.add_argument(
            "target", help="an entry id, or an engine name (simple, eliza, aiml, learner, llm, webhook)"
        )
        parser.add_argument("message", nargs="?", help="the message; without it, read lines from stdin")
        parser.add_argument("--engine-settings", default="", help="engine settings as JSON (engine names only)")
        parser.add_argument("--timing", action="store_true", help="print each reply's latency")

    def handle(self, target, message, engine_settings, timing, **options):
        from arena.services.engines import engine_ask, engine_settings_validate, reply_context_build

        if target.isdigit():
            entry = Entry.objects.filter(pk=int(target)).first()
            if entry is None:
                raise CommandError(f"No entry {target}.")
            if entry.is_external:
                raise CommandError(f"Entry {target} is answered by an outside program ({entry.engine}).")
        else:
            try:
                engine_settings = json.loads(engine_settings) if engine_settings else {}
                engine_settings_validate(engine=target, settings=engine_settings)  # the error names the bad key
            except KeyError as exc:  # bots.registry.UnknownEngine
                raise CommandError(str(exc)) from None
            except ValueError as exc:
                raise CommandError(f"bad settings: {exc}") from None
            entry = Entry(display_name=f"talk:{target}", engine=target, settings=engine_settings)

        key = f"talk-{uuid.uuid4()}"
        history: list = []
        interactive = message is None
        lines = [message] if not interactive else (line.rstrip("\n") for line in sys.stdin)
        if interactive and sys.stdin.isatty():
            self.stderr.write(f"Talking to {entry.engine}; Ctrl-D to stop.")
        failures = 0
        for line in lines:
            if not line.strip():
                continue
            start = time.perf_counter()
            context = reply_context_build(key=key, history=history, message=line)
            result = engine_ask(entry=entry, context=context)
            took = f" [{(time.perf_counter() - start) * 1000:.0f} ms]" if timing else ""
            if result.ok:
                self.stdout.write(f"{result.text}{took}")
                history += [("interrogator", line), ("witness", result.text)]
            else:
                failures += 1
                self.stderr.write(f"({result.outcome}: {result.error}){took}")
        if failures and not interactive:
            raise CommandError("the engine failed to reply")
