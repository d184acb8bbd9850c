"""Secrets generated once into a file (mode 0600) when none is configured: the embedded default's
SECRET_KEY and transcript-signing key, so that `make run` needs nothing set and keeps its sessions and
seals valid across restarts."""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable
from pathlib import Path


def file_once(path: Path, make: Callable[[], bytes]) -> bytes:
    """The bytes kept in `path`; `make()` written there first if there is none (mode 0600).

    Written to a temporary file and linked into place, so two processes starting at once agree on one
    value and none ever reads half a file."""
    path = Path(path)
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        draft = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.fchmod(fd, 0o600)
            os.write(fd, make())
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.link(draft, path)
        except FileExistsError:
            pass  # another process was first: its value is the value
        finally:
            draft.unlink()
    return path.read_bytes()


def secret_key_file(path: Path) -> str:
    """A Django SECRET_KEY kept in `path` (generated once: 50 random URL-safe characters and more)."""
    return file_once(path, lambda: secrets.token_urlsafe(50).encode()).decode().strip()
