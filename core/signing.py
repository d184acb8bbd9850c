"""The platform's Ed25519 signing key: read from its text, or generated once into a file (mode 0600).

Seals are made here and checked by ``core.hashchain``, which needs only public keys.
"""
from __future__ import annotations

import base64
import dataclasses
import os
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from core.hashchain import Seal, key_from_text, key_id, public_key_text


def private_key_load(text: str) -> Ed25519PrivateKey:
    """An Ed25519 private key from base64 of its 32 bytes, or PEM (PKCS#8, unencrypted); ValueError otherwise."""
    return key_from_text(text, what="private key", pem=lambda data: serialization.load_pem_private_key(data, None),
                         raw=Ed25519PrivateKey.from_private_bytes, kind=Ed25519PrivateKey)


def private_key_pem(key: Ed25519PrivateKey) -> bytes:
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption())


def private_key_text(key: Ed25519PrivateKey) -> str:
    """base64 of the 32 raw bytes: the form of ARENA_SIGNING_KEY that fits one line."""
    raw = key.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption())
    return base64.b64encode(raw).decode()


def private_key_file(path: Path) -> Ed25519PrivateKey:
    """The key kept in `path`; generated and written there first if there is none (mode 0600).

    Written to a temporary file and linked into place, so two processes starting at once agree on one
    key and none ever reads half a file."""
    path = Path(path)
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        draft = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.fchmod(fd, 0o600)
            os.write(fd, private_key_pem(Ed25519PrivateKey.generate()))
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.link(draft, path)
        except FileExistsError:
            pass  # another process was first: its key is the key
        finally:
            draft.unlink()
    return private_key_load(path.read_text())


def seal_sign(seal: Seal, key: Ed25519PrivateKey) -> Seal:
    signed = dataclasses.replace(seal, key_id=key_id(key.public_key()), signature="")
    return dataclasses.replace(signed, signature=base64.b64encode(key.sign(signed.payload())).decode())


def main() -> None:
    """`python -m core.signing`: a new key, as ARENA_SIGNING_KEY wants it, with its public key and id."""
    key = Ed25519PrivateKey.generate()
    print(f"ARENA_SIGNING_KEY={private_key_text(key)}")
    print(f"# public key {public_key_text(key.public_key())}, key id {key_id(key.public_key())}")


if __name__ == "__main__":
    main()
