"""Browser libraries come from npm at build time, checked against npm's published checksum: a fake
``npm`` on PATH packs a tarball the way npm does."""
import hashlib
import io
import os
import tarfile

import pytest

from core.vendor import NpmPackage, VendorError, npm_fetch


def _tarball(files):
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


@pytest.fixture
def fake_npm(tmp_path, monkeypatch):
    """An ``npm`` that writes demo-1.0.0.tgz into its working directory, as ``npm pack`` does."""
    data = _tarball({"package/dist/demo.min.js": b"window.demo = 1;", "package/LICENSE": b"MIT"})
    (tmp_path / "demo.tgz").write_bytes(data)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    npm = bin_dir / "npm"
    npm.write_text(f"#!/bin/sh\ncp {tmp_path / 'demo.tgz'} ./demo-1.0.0.tgz\n")
    npm.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    return hashlib.sha1(data).hexdigest()


def test_fetch_keeps_the_listed_files_and_the_licence(fake_npm, tmp_path):
    package = NpmPackage("demo@1.0.0", fake_npm, (("package/dist/demo.min.js", "demo/demo.min.js"),))
    dest = tmp_path / "vendor"
    assert not package.present(dest)
    npm_fetch(package, dest)
    assert (dest / "demo" / "demo.min.js").read_bytes() == b"window.demo = 1;"
    assert (dest / "LICENSE.demo").read_bytes() == b"MIT"
    assert package.present(dest)


def test_a_tarball_without_npms_checksum_is_refused(fake_npm, tmp_path):
    package = NpmPackage("demo@1.0.0", "0" * 40, (("package/dist/demo.min.js", "demo/demo.min.js"),))
    with pytest.raises(VendorError, match="checksum"):
        npm_fetch(package, tmp_path / "vendor")
    assert not (tmp_path / "vendor" / "demo").exists()


def test_without_npm_the_error_says_what_to_install(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(VendorError, match="npm is not installed"):
        npm_fetch(NpmPackage("demo@1.0.0", "0" * 40, ()), tmp_path / "vendor")


def test_scoped_packages_name_their_tarball_as_npm_does():
    assert NpmPackage("@scope/name@2.1.0", "x", ()).tarball == "scope-name-2.1.0.tgz"
