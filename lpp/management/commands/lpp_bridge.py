import logging
import signal
import threading
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from arena.models import Entry
from lpp.bridge import Bridge


def default_directory(entry) -> str:
    """On tmpfs where there is one: a disk's rmdir per key costs a millisecond, tmpfs's microseconds."""
    shm = Path("/dev/shm")
    return str(shm / f"lpp-bridge-{entry.pk}") if shm.is_dir() else f"lpp-bridge-{entry.pk}"


class Command(BaseCommand):
    help = (
        "Run a legacy LPP entry program as the witness of the running conversations of an entry: "
        "judge messages become .judge keys, the program's .other keys become its messages."
    )

    def add_arguments(self, parser):
        parser.add_argument("--entry", required=True, type=int, help="the Entry's id")
        parser.add_argument(
            "--command",
            required=True,
            help="the program; '{dir}' is replaced by the communications directory, "
            "else the directory is appended as the last argument",
        )
        parser.add_argument(
            "--dir",
            default=None,
            help="where the per-conversation directories go "
            "(default /dev/shm/lpp-bridge-<entry> on tmpfs, else ./lpp-bridge-<entry>)",
        )
        parser.add_argument(
            "--silence",
            type=float,
            default=30.0,
            help="seconds without a key after a judge message before reporting (default 30)",
        )
        parser.add_argument(
            "--idle",
            type=float,
            default=3.0,
            help="seconds without a key that end a program line lacking Return (default 3)",
        )
        parser.add_argument(
            "--poll",
            type=float,
            default=0.1,
            help="seconds between full steps: the judges' new keys and messages, health (default 0.1)",
        )
        parser.add_argument(
            "--wake",
            choices=("auto", "inotify", "poll"),
            default="auto",
            help="how the program's keys are noticed: inotify as soon as they appear (auto: "
            "inotify, or watchdog's polling where there is none; default), or poll: "
            "only in the full steps",
        )

    def handle(self, *args, entry, command, dir=None, silence, idle, poll, wake, **options):
        try:
            witness = Entry.objects.get(pk=entry)
        except Entry.DoesNotExist:
            raise CommandError(f"No entry {entry}.") from None
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
        if witness.engine != "lpp":
            self.stderr.write(
                self.style.WARNING(
                    f"Entry {witness} has engine {witness.engine!r}: "
                    "give it the engine 'lpp', or its engine answers too."
                )
            )
        if settings.CHANNEL_LAYERS["default"]["BACKEND"].endswith("InMemoryChannelLayer"):
            self.stderr.write(
                self.style.WARNING(
                    "The channel layer is in-memory: the program's replies are stored, but open pages see them only "
                    "after a reload. Set REDIS_URL (services mode) for live streaming to the judge's page."
                )
            )
        stop = threading.Event()
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, lambda *_: stop.set())  # the current step finishes first
        bridge = Bridge(witness, command, dir or default_directory(witness), silence_s=silence, idle_s=idle)
        self.stdout.write(f"Bridging entry {witness} ({witness.pk}) to: {command}")
        bridge.run(stop, poll_s=poll, wake=wake)
        self.stdout.write("Bridge stopped.")
