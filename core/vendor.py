"""Third-party browser files (chart libraries, axe-core, the LPP2 reference pages' scripts) fetched from
npm at build time, never from a CDN at run time: ``npm pack`` the pinned version, check the tarball
against npm's published sha1, keep the listed files and the licence. No Django here."""
from __future__ import annotations

import hashlib
import shutil
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path


class VendorError(Exception):
    """npm is missing, the pack failed, or the tarball is not the one npm published."""


@dataclass(frozen=True)
class NpmPackage:
    spec: str  # "uplot@1.6.31"
    sha1: str  # npm's published shasum of the tarball
    files: tuple[tuple[str, str], ...]  # (member in the tarball, name kept under the destination)
    licence: str = "package/LICENSE"

    @property
    def name(self) -> str:
        return self.spec.rsplit("@", 1)[0]

    @property
    def tarball(self) -> str:
        name, version = self.spec.rsplit("@", 1)
        return f"{name.lstrip('@').replace('/', '-')}-{version}.tgz"

    def present(self, dest: Path) -> bool:
        return all((dest / kept).is_file() for _, kept in self.files)


def npm_fetch(package: NpmPackage, dest: Path) -> list[Path]:
    """Fetch one pinned package's files into ``dest`` (created); returns the paths written."""
    if shutil.which("npm") is None:
        raise VendorError("npm is not installed: install node and npm, then run this again.")
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run(["npm", "pack", package.spec, "--silent"], cwd=tmp, capture_output=True,
                              text=True, timeout=300)
        tarball = Path(tmp) / package.tarball
        if done.returncode or not tarball.is_file():
            raise VendorError(f"npm pack {package.spec} failed: {done.stderr.strip()[-400:]}")
        if hashlib.sha1(tarball.read_bytes()).hexdigest() != package.sha1:
            raise VendorError(f"{tarball.name} does not have npm's published checksum {package.sha1}.")
        with tarfile.open(tarball) as archive:
            contents = {kept: archive.extractfile(member).read() for member, kept in package.files}
            licence = archive.extractfile(package.licence).read()
    written = []
    for kept, data in contents.items():
        target = dest / kept
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        written.append(target)
    dest.mkdir(parents=True, exist_ok=True)
    (dest / f"LICENSE.{package.name.lstrip('@').replace('/', '-')}").write_bytes(licence)
    return written


# The browser libraries the pages load, fetched into var/vendor/ (served at /static/vendor/) by
# ``python manage.py vendor fetch``; `make run` and `make test` fetch what is missing. Pin the version and
# npm's sha1 (``npm view PACKAGE@VERSION dist.shasum``).
STATIC_VENDOR: tuple[NpmPackage, ...] = (
)
