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

# what the reference pages load from the server's /scripts/: npm package, its tarball's shasum (npm's),
# the file kept, the licence kept beside it, the name served
SCRIPTS = (
    ("socket.io-client@1.4.5", "socket.io-client-1.4.5.tgz", "400d630c31e7c9579e45173f977e4f5bd8dc7d2e",
     "package/socket.io.js", "package/LICENSE", "socket.io-1.4.5.js"),
    ("jquery@3.7.1", "jquery-3.7.1.tgz", "083ef98927c9a6a74d05a6af02806566d16274de",
     "package/dist/jquery.min.js", "package/LICENSE.txt", "jquery.min.js"),
)


class Command(BaseCommand):
    help = "LPP2 (socket.io, AISB 2017-2019): set up a contest, or fetch the reference pages' client script."

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="action", required=True)
        setup = sub.add_parser("setup", help="create (or reset) an aisb contest served at /socket.io/")
        setup.add_argument("--contest", required=True, metavar="NAME")
        setup.add_argument("--secret", required=True, metavar="S")
        setup.add_argument("--driver", choices=["panel", "schedule"], default="panel",
                           help="who drives the rounds: the control panel (default) or the platform's schedule")
        connect = sub.add_parser("connect", help="serve an existing Loebner contest (schedule built) at /socket.io/")
        connect.add_argument("--contest", required=True, metavar="NAME")
        connect.add_argument("--secret", required=True, metavar="S")
        connect.add_argument("--driver", choices=["panel", "schedule"], default="schedule",
                             help="who drives the rounds: the platform's schedule (default) or the control panel")
        sub.add_parser("fetch-client", help="npm pack socket.io-client@1.4.5 and jquery, keep their dist files")

    def handle(self, *args, action, **options):
        if action in ("setup", "connect"):
            from lpp.lpp2.services import lpp2_contest_connect, lpp2_contest_setup
            from tournaments.loebner.models import Contest

            try:
                if action == "setup":
                    lpp2 = lpp2_contest_setup(name=options["contest"], secret=options["secret"], driver=options["driver"])
                else:
                    contest = Contest.objects.filter(name=options["contest"]).first()
                    if contest is None:
                        raise CommandError(f"No contest named {options['contest']!r}.")
                    lpp2 = lpp2_contest_connect(contest_id=contest.pk, secret=options["secret"], driver=options["driver"])
            except ArenaError as error:
                raise CommandError(str(error)) from None
            names = ", ".join(lpp2.identities.values_list("name", flat=True))
            self.stdout.write(f"Contest {lpp2.contest.name!r} (id {lpp2.contest_id}) served at /socket.io/; "
                              f"identities: {names}; rounds: {lpp2.get_driver_display()}.")
        else:
            for script in SCRIPTS:
                self.stdout.write(f"Fetched {self._fetch(*script)}")

    def _fetch(self, package, tarball_name, sha1, member, licence_member, served) -> Path:
        from lpp.lpp2.asgi import scripts_dir

        if shutil.which("npm") is None:
            raise CommandError("npm is not installed: install node and npm, then run this again.")
        target = scripts_dir() / served
        with tempfile.TemporaryDirectory() as tmp:
            done = subprocess.run(["npm", "pack", package, "--silent"], cwd=tmp, capture_output=True, text=True,
                                  timeout=300)
            tarball = Path(tmp) / tarball_name
            if done.returncode or not tarball.is_file():
                raise CommandError(f"npm pack {package} failed: {done.stderr.strip()[-400:]}")
            if hashlib.sha1(tarball.read_bytes()).hexdigest() != sha1:
                raise CommandError(f"{tarball.name} does not have npm's published checksum {sha1}.")
            with tarfile.open(tarball) as archive:
                script = archive.extractfile(member).read()
                licence = archive.extractfile(licence_member).read()
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(script)
        target.with_name(f"LICENSE.{package.split('@')[0]}").write_bytes(licence)
        return target
