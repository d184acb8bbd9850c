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
# uPlot draws live series (prices, progress); Vega-Lite (with vega and vega-embed, which adds the PNG/SVG
# export menu) draws statistical plots (rates with CIs, ratings, score curves, heat maps); axe-core is what
# the browser tests run for accessibility.
STATIC_VENDOR: tuple[NpmPackage, ...] = (
    NpmPackage("uplot@1.6.32", "c800a63b432bad692d6d746f44f0882aa73a49ae",
               (("package/dist/uPlot.iife.min.js", "uplot/uPlot.iife.min.js"),
                ("package/dist/uPlot.min.css", "uplot/uPlot.min.css"))),
    NpmPackage("vega@6.4.0", "cc825bf22894d766ca8385342a2bb8ba942091cc",
               (("package/build/vega.min.js", "vega/vega.min.js"),)),
    NpmPackage("vega-lite@6.5.0", "8f43425ab09de895bbfa66928c6b797d5c4cdcd1",
               (("package/build/vega-lite.min.js", "vega/vega-lite.min.js"),)),
    NpmPackage("vega-embed@7.3.0", "ca629bb2cbd8ee64d7917c7e532f5b1a77243ff1",
               (("package/build/vega-embed.min.js", "vega/vega-embed.min.js"),)),
    NpmPackage("axe-core@4.14.1", "14d8a6f3f085afd126b8b5ca1e42e50e17fb1d99",
               (("package/axe.min.js", "axe-core/axe.min.js"),)),
)
