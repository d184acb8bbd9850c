"""The platform's transcript-signing keys, from settings (ARENA_SIGNING_KEY, ARENA_SIGNING_KEY_FILE,
ARENA_SIGNING_RETIRED_KEYS): the current private key, and every public key a seal may be checked with."""

from functools import lru_cache
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from core import hashchain, signing

VERIFY_HOW = (
    "Each conversation's seal signs its message count and head hash. To check a transcript without the "
    "platform: save its JSON and the platform's public keys (/transcripts/keys.json), then run "
    "`python -m core.hashchain verify transcript.json --key keys.json` (core/hashchain.py of the platform's "
    "source; it needs only Python and the cryptography package). On the platform: "
    "`python manage.py verify_transcript <transcript id>`."
)


@lru_cache(maxsize=4)
def _private_key(text: str | None, path: str | None) -> Ed25519PrivateKey:
    if text:
        return signing.private_key_load(text)
    if path:
        return signing.private_key_file(Path(path))
    raise ImproperlyConfigured("No transcript-signing key: set ARENA_SIGNING_KEY (see system check arena.E004).")


def signing_key() -> Ed25519PrivateKey:
    path = settings.ARENA_SIGNING_KEY_FILE
    return _private_key(settings.ARENA_SIGNING_KEY, str(path) if path else None)


def signing_key_forget() -> None:
    """Read the key afresh on next use (after the settings changed)."""
    _private_key.cache_clear()


def public_keys() -> dict[str, Ed25519PublicKey]:
    """{key id: public key}: the current key's and the retired ones', the only keys a seal is checked with."""
    retired = [hashchain.public_key_load(text) for text in settings.ARENA_SIGNING_RETIRED_KEYS]
    return hashchain.keys_index([signing_key().public_key(), *retired])


def public_keys_document() -> dict:
    """What /transcripts/keys.json publishes (and each transcript export repeats)."""
    current = hashchain.key_id(signing_key().public_key())
    return {
        "algorithm": "Ed25519",
        "key_id": "the first 16 hex digits of the SHA-256 of the key's 32 raw bytes",
        "keys": [
            {"key_id": kid, "public_key": hashchain.public_key_text(key), "current": kid == current}
            for kid, key in public_keys().items()
        ],
        "verify": VERIFY_HOW,
    }
