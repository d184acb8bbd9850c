"""``python manage.py lpp2 setup --contest NAME --secret S``: a four-judge aisb contest served over LPP2
(identities judge0…3, ai0…3, conf0…3, CONTROLLER, webcast, all with secret S; rounds driven by the
control panel). ``python manage.py lpp2 fetch-client``: the socket.io 1.4.5 client (npm) the reference
pages load from /scripts/socket.io-1.4.5.js."""
import hashlib
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from core.errors import ArenaError

CLIENT_PACKAGE = "socket.io-client@1.4.5"
CLIENT_SHA1 = "400d630c31e7c9579e45173f977e4f5bd8dc7d2e"  # npm's shasum of socket.io-client-1.4.5.tgz


class Command(BaseCommand):
    help = "LPP2 (socket.io, AISB 2017-2019): set up a contest, or fetch the reference pages' client script."

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="action", required=True)
        setup = sub.add_parser("setup", help="create (or reset) an aisb contest served at /socket.io/")
        setup.add_argument("--contest", required=True, metavar="NAME")
        setup.add_argument("--secret", required=True, metavar="S")
        setup.add_argument("--driver", choices=["panel", "schedule"], default="panel",
                           help="who drives the rounds: the control panel (default) or the platform's schedule")
        sub.add_parser("fetch-client", help=f"npm pack {CLIENT_PACKAGE} and keep its dist file")

    def handle(self, *args, action, **options):
        if action == "setup":
            from lpp.lpp2.services import lpp2_contest_setup

            try:
                lpp2 = lpp2_contest_setup(name=options["contest"], secret=options["secret"], driver=options["driver"])
            except ArenaError as error:
                raise CommandError(str(error)) from None
            names = ", ".join(lpp2.identities.values_list("name", flat=True))
            self.stdout.write(f"Contest {lpp2.contest.name!r} (id {lpp2.contest_id}) served at /socket.io/; "
                              f"identities: {names}; rounds: {lpp2.get_driver_display()}.")
        else:
            self.stdout.write(f"Fetched {self._fetch()}")

    def _fetch(self) -> Path:
        from lpp.lpp2.asgi import script_file

        if shutil.which("npm") is None:
            raise CommandError("npm is not installed: install node and npm, then run this again.")
        target = script_file()
        with tempfile.TemporaryDirectory() as tmp:
            done = subprocess.run(["npm", "pack", CLIENT_PACKAGE, "--silent"], cwd=tmp, capture_output=True, text=True,
                                  timeout=300)
            tarball = Path(tmp) / "socket.io-client-1.4.5.tgz"
            if done.returncode or not tarball.is_file():
                raise CommandError(f"npm pack {CLIENT_PACKAGE} failed: {done.stderr.strip()[-400:]}")
            if hashlib.sha1(tarball.read_bytes()).hexdigest() != CLIENT_SHA1:
                raise CommandError(f"{tarball.name} does not have npm's published checksum {CLIENT_SHA1}.")
            with tarfile.open(tarball) as archive:
                script = archive.extractfile("package/socket.io.js").read()
                licence = archive.extractfile("package/LICENSE").read()
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(script)
        target.with_name("LICENSE.socket.io-client").write_bytes(licence)
        return target
