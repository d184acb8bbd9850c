"""``python manage.py vendor fetch [--missing]``: the pages' browser libraries (core/vendor.py) from npm
into static/vendor/ (kept in the repository), each checked against npm's published checksum, their sha256
recorded in static/vendor/SHA256SUMS; ``vendor list`` says what is there; ``vendor verify`` checks the kept
files against that record."""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from core.vendor import STATIC_VENDOR, VendorError, npm_fetch, verify, write_manifest


def vendor_dir() -> Path:
    return Path(settings.BASE_DIR) / "static" / "vendor"


class Command(BaseCommand):
    help = (
        "The pages' browser libraries (chart libraries, axe-core) in static/vendor/: "
        "fetch them from npm, list or verify them."
    )

    def add_arguments(self, parser):
        parser.add_argument("action", choices=["fetch", "list", "verify"])
        parser.add_argument("--missing", action="store_true", help="fetch only packages whose files are missing")

    def handle(self, *args, action, missing, **options):
        dest = vendor_dir()
        if action == "verify":
            problems = verify(STATIC_VENDOR, dest)
            if problems:
                raise CommandError("; ".join(problems))
            self.stdout.write(f"{len(STATIC_VENDOR)} packages: every kept file is the one npm published.")
            return
        for package in STATIC_VENDOR:
            if action == "list":
                state = "present" if package.present(dest) else "missing"
                self.stdout.write(f"{package.spec}: {state}")
                continue
            if missing and package.present(dest):
                continue
            try:
                written = npm_fetch(package, dest)
            except VendorError as error:
                raise CommandError(str(error)) from None
            self.stdout.write(f"Fetched {package.spec}: " + ", ".join(str(p.relative_to(dest)) for p in written))
        if action == "fetch":
            write_manifest(STATIC_VENDOR, dest)
