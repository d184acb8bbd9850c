"""The platform's Ed25519 signing key: read from its text, or generated once into a file (mode 0600).

Seals are made here and checked by ``core.hashchain``, which needs only public keys.
"""

from __future__ import annotations

import base64
import dataclasses
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from core.hashchain import RecordSeal, Seal, key_from_text, key_id, public_key_text
from core.keyfiles import file_once


def private_key_load(text: str) -> Ed25519PrivateKey:
    """An Ed25519 private key from base64 of its 32 bytes, or PEM (PKCS#8, unencrypted); ValueError otherwise."""
    return key_from_text(
        text,
        what="private key",
        pem=lambda data: serialization.load_pem_private_key(data, None),
        raw=Ed25519PrivateKey.from_private_bytes,
        kind=Ed25519PrivateKey,
    )


def private_key_pem(key: Ed25519PrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )


def private_key_text(key: Ed25519PrivateKey) -> str:
    """base64 of the 32 raw bytes: the form of ARENA_SIGNING_KEY that fits one line."""
    raw = key.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption())
    return base64.b64encode(raw).decode()


def private_key_file(path: Path) -> Ed25519PrivateKey:
    """The key kept in `path`; generated and written there first if there is none (mode 0600)."""
    return private_key_load(file_once(path, lambda: private_key_pem(Ed25519PrivateKey.generate())).decode())


def seal_sign(seal: Seal | RecordSeal, key: Ed25519PrivateKey) -> Seal | RecordSeal:
    """A conversation's seal or a whole record's, signed: its key_id filled in, then its payload signed."""
    signed = dataclasses.replace(seal, key_id=key_id(key.public_key()), signature="")
    return dataclasses.replace(signed, signature=base64.b64encode(key.sign(signed.payload())).decode())


def main() -> None:
    """`python -m core.signing`: a new key, as ARENA_SIGNING_KEY wants it, with its public key and id."""
    key = Ed25519PrivateKey.generate()
    print(f"ARENA_SIGNING_KEY={private_key_text(key)}")
    print(f"# public key {public_key_text(key.public_key())}, key id {key_id(key.public_key())}")


if __name__ == "__main__":
    main()
