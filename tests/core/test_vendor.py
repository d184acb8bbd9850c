"""Browser libraries come from npm, checked against npm's published checksum (a fake ``npm`` on PATH packs a
tarball the way npm does), and are kept in the repository with a sha256 record that finds any later edit."""

import hashlib
import io
import os
import tarfile

import pytest
from django.core.management import call_command

from core.vendor import STATIC_VENDOR, NpmPackage, VendorError, npm_fetch, verify, write_manifest
from lpp.lpp2.asgi import scripts_dir
from lpp.management.commands.lpp2 import SCRIPTS


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


def test_the_kept_files_are_the_ones_npm_published():
    """What a fresh checkout serves: every pinned file is there, unedited (static/vendor/, lpp/lpp2/vendor/)."""
    from arena.management.commands.vendor import vendor_dir

    assert verify(STATIC_VENDOR, vendor_dir()) == []
    assert verify(SCRIPTS, scripts_dir()) == []


def test_an_edited_or_lost_file_is_found(fake_npm, tmp_path):
    package = NpmPackage("demo@1.0.0", fake_npm, (("package/dist/demo.min.js", "demo/demo.min.js"),))
    dest = tmp_path / "vendor"
    assert verify((package,), dest) == [f"{dest / 'SHA256SUMS'} is missing"]
    npm_fetch(package, dest)
    write_manifest((package,), dest)
    assert verify((package,), dest) == []
    (dest / "demo" / "demo.min.js").write_bytes(b"window.demo = 2;")
    assert verify((package,), dest) == ["demo@1.0.0: demo/demo.min.js differs from the file npm published"]
    (dest / "demo" / "demo.min.js").unlink()
    assert verify((package,), dest) == ["demo@1.0.0: demo/demo.min.js is missing"]


def test_vendor_verify_says_every_file_is_npms(capsys):
    call_command("vendor", "verify")
    assert "every kept file is the one npm published" in capsys.readouterr().out
