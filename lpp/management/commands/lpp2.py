"""``python manage.py lpp2 setup --contest NAME --secret S``: a four-judge aisb contest served over LPP2
(identities judge0…3, ai0…3, conf0…3, CONTROLLER, webcast, all with secret S; rounds driven by the
control panel). ``python manage.py lpp2 fetch-client``: refetch the socket.io 1.4.5 client and jQuery (npm)
the reference pages load from /scripts/, kept in the repository under lpp/lpp2/vendor/."""

from django.core.management.base import BaseCommand, CommandError

from core.errors import ArenaError
from core.vendor import NpmPackage, VendorError, npm_fetch, write_manifest

# what the reference pages load from the server's /scripts/ (npm's tarball shasums)
SCRIPTS = (
    NpmPackage(
        "socket.io-client@1.4.5",
        "400d630c31e7c9579e45173f977e4f5bd8dc7d2e",
        (("package/socket.io.js", "socket.io-1.4.5.js"),),
    ),
    NpmPackage(
        "jquery@3.7.1",
        "083ef98927c9a6a74d05a6af02806566d16274de",
        (("package/dist/jquery.min.js", "jquery.min.js"),),
        licence="package/LICENSE.txt",
    ),
)


class Command(BaseCommand):
    help = "LPP2 (socket.io, AISB 2017-2019): set up a contest, or fetch the reference pages' client script."

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="action", required=True)
        setup = sub.add_parser("setup", help="create (or reset) an aisb contest served at /socket.io/")
        setup.add_argument("--contest", required=True, metavar="NAME")
        setup.add_argument("--secret", required=True, metavar="S")
        setup.add_argument(
            "--driver",
            choices=["panel", "schedule"],
            default="panel",
            help="who drives the rounds: the control panel (default) or the platform's schedule",
        )
        connect = sub.add_parser("connect", help="serve an existing Loebner contest (schedule built) at /socket.io/")
        connect.add_argument("--contest", required=True, metavar="NAME")
        connect.add_argument("--secret", required=True, metavar="S")
        connect.add_argument(
            "--driver",
            choices=["panel", "schedule"],
            default="schedule",
            help="who drives the rounds: the platform's schedule (default) or the control panel",
        )
        sub.add_parser("fetch-client", help="npm pack socket.io-client@1.4.5 and jquery, keep their dist files")

    def handle(self, *args, action, **options):
        if action in ("setup", "connect"):
            from lpp.lpp2.services import lpp2_contest_connect, lpp2_contest_setup
            from tournaments.loebner.models import Contest

            try:
                if action == "setup":
                    lpp2 = lpp2_contest_setup(
                        name=options["contest"], secret=options["secret"], driver=options["driver"]
                    )
                else:
                    contest = Contest.objects.filter(name=options["contest"]).first()
                    if contest is None:
                        raise CommandError(f"No contest named {options['contest']!r}.")
                    lpp2 = lpp2_contest_connect(
                        contest_id=contest.pk, secret=options["secret"], driver=options["driver"]
                    )
            except ArenaError as error:
                raise CommandError(str(error)) from None
            names = ", ".join(lpp2.identities.values_list("name", flat=True))
            self.stdout.write(
                f"Contest {lpp2.contest.name!r} (id {lpp2.contest_id}) served at /socket.io/; "
                f"identities: {names}; rounds: {lpp2.get_driver_display()}."
            )
        else:
            from lpp.lpp2.asgi import scripts_dir

            for package in SCRIPTS:
                try:
                    written = npm_fetch(package, scripts_dir())
                except VendorError as error:
                    raise CommandError(str(error)) from None
                self.stdout.write("Fetched " + ", ".join(map(str, written)))
            write_manifest(SCRIPTS, scripts_dir())
