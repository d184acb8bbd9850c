"""Third-party browser files (chart libraries, axe-core, the LPP2 reference pages' scripts), kept in the
repository as Django's admin keeps its jQuery, so a fresh checkout serves them with no network and never
from a CDN. To add or upgrade one: pin it here, then ``npm pack`` the pinned version, check the tarball
against npm's published sha1, keep the listed files and the licence, and record every kept file's sha256
in the folder's ``SHA256SUMS`` (``manage.py vendor fetch`` / ``lpp2 fetch-client`` do all of it);
``verify`` finds a kept file that was edited or lost since. No Django here."""

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
        done = subprocess.run(
            ["npm", "pack", package.spec, "--silent"], cwd=tmp, capture_output=True, text=True, timeout=300
        )
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


MANIFEST = "SHA256SUMS"


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def write_manifest(packages: tuple[NpmPackage, ...], dest: Path) -> Path:
    """Record the sha256 of every kept file of ``packages`` in ``dest/SHA256SUMS`` (sha256sum's format)."""
    names = sorted(kept for package in packages for _, kept in package.files)
    manifest = dest / MANIFEST
    manifest.write_text("".join(f"{_sha256(dest / name)}  {name}\n" for name in names))
    return manifest


def verify(packages: tuple[NpmPackage, ...], dest: Path) -> list[str]:
    """What is wrong with the kept files of ``packages`` under ``dest``: missing, unrecorded or changed since
    they were fetched (an empty list when every file is the one npm published)."""
    manifest = dest / MANIFEST
    if not manifest.is_file():
        return [f"{manifest} is missing"]
    recorded = dict(reversed(line.split("  ", 1)) for line in manifest.read_text().splitlines() if line.strip())
    problems = []
    for package in packages:
        for _, kept in package.files:
            path = dest / kept
            if not path.is_file():
                problems.append(f"{package.spec}: {kept} is missing")
            elif kept not in recorded:
                problems.append(f"{package.spec}: {kept} is not in {MANIFEST}")
            elif _sha256(path) != recorded[kept]:
                problems.append(f"{package.spec}: {kept} differs from the file npm published")
    return problems


# The browser libraries the pages load, kept in static/vendor/ (served at /static/vendor/) and refreshed by
# ``python manage.py vendor fetch`` after a pin changes. Pin the version and npm's sha1
# (``npm view PACKAGE@VERSION dist.shasum``).
# uPlot draws live series (prices, progress); Vega-Lite (with vega and vega-embed, which adds the PNG/SVG
# export menu) draws statistical plots (rates with CIs, ratings, score curves, heat maps); axe-core is what
# the browser tests run for accessibility.
STATIC_VENDOR: tuple[NpmPackage, ...] = (
    NpmPackage(
        "uplot@1.6.32",
        "c800a63b432bad692d6d746f44f0882aa73a49ae",
        (
            ("package/dist/uPlot.iife.min.js", "uplot/uPlot.iife.min.js"),
            ("package/dist/uPlot.min.css", "uplot/uPlot.min.css"),
        ),
    ),
    NpmPackage(
        "vega@6.4.0", "cc825bf22894d766ca8385342a2bb8ba942091cc", (("package/build/vega.min.js", "vega/vega.min.js"),)
    ),
    NpmPackage(
        "vega-lite@6.5.0",
        "8f43425ab09de895bbfa66928c6b797d5c4cdcd1",
        (("package/build/vega-lite.min.js", "vega/vega-lite.min.js"),),
    ),
    NpmPackage(
        "vega-embed@7.3.0",
        "ca629bb2cbd8ee64d7917c7e532f5b1a77243ff1",
        (("package/build/vega-embed.min.js", "vega/vega-embed.min.js"),),
    ),
    NpmPackage(
        "axe-core@4.14.1", "14d8a6f3f085afd126b8b5ca1e42e50e17fb1d99", (("package/axe.min.js", "axe-core/axe.min.js"),)
    ),
)
