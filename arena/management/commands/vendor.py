"""``python manage.py vendor fetch [--missing]``: the pages' browser libraries (core/vendor.py) from npm
into var/vendor/, each checked against npm's published checksum; ``vendor list`` says what is there."""
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from core.vendor import STATIC_VENDOR, VendorError, npm_fetch


def vendor_dir() -> Path:
    return Path(settings.BASE_DIR) / "var" / "vendor"


class Command(BaseCommand):
    help = "Fetch the pages' browser libraries (chart libraries, axe-core) from npm into var/vendor/."

    def add_arguments(self, parser):
        parser.add_argument("action", choices=["fetch", "list"])
        parser.add_argument("--missing", action="store_true", help="fetch only packages whose files are missing")

    def handle(self, *args, action, missing, **options):
        dest = vendor_dir()
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
