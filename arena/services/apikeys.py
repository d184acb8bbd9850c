"""API keys: named, revocable tokens of which only a hash is kept.

A key is ``arena_`` followed by 43 random URL-safe characters (256 bits). It is shown once, when it is
created; the database keeps its SHA-256 (a key has enough entropy that a plain hash cannot be searched)
and its first characters, so that a list tells keys apart. ``Authorization: Token <key>`` authenticates
(:class:`arena.api.auth.ApiKeyAuthentication`, which still accepts DRF's stored tokens for older clients).
"""

import hashlib
import secrets
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from arena.models import ApiKey
from core.errors import InvalidInput

PREFIX = "arena_"
MAX_ACTIVE_KEYS = 20
NAME_CHARS = 60


def key_digest(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class NewKey:
    api_key: ApiKey
    key: str  # the only time it exists outside its owner's hands


def apikey_create(*, user, name: str, key: str | None = None) -> NewKey:
    """A new key for ``user`` named ``name`` (1–60 printable characters, unique among their active keys).
    ``key`` fixes the key itself (the demo data's documented key); otherwise it is random."""
    name = (name or "").strip()
    if not name or len(name) > NAME_CHARS or not name.isprintable():
        raise InvalidInput(f"A key's name is 1 to {NAME_CHARS} printable characters.", code="bad_name")
    key = key or PREFIX + secrets.token_urlsafe(32)
    with transaction.atomic():
        active = ApiKey.objects.select_for_update().filter(user=user, revoked_at__isnull=True)
        if active.filter(name=name).exists():
            raise InvalidInput(f"You already have an active key named {name!r}.", code="duplicate_name")
        if active.count() >= MAX_ACTIVE_KEYS:
            raise InvalidInput(f"At most {MAX_ACTIVE_KEYS} active keys: revoke one first.", code="too_many_keys")
        api_key = ApiKey.objects.create(user=user, name=name, prefix=key[: len(PREFIX) + 6], key_hash=key_digest(key))
    return NewKey(api_key, key)


def apikey_revoke(*, user, key_id: int) -> bool:
    """Revoke one of ``user``'s keys; False when it is not theirs (or already revoked)."""
    return ApiKey.objects.filter(pk=key_id, user=user, revoked_at__isnull=True).update(revoked_at=timezone.now()) == 1


def apikey_authenticate(*, key: str) -> ApiKey | None:
    """The active key with this text and its (active) user, its last use noted; None otherwise."""
    if not isinstance(key, str) or not key.startswith(PREFIX) or len(key) > 200:
        return None
    api_key = ApiKey.objects.select_related("user").filter(key_hash=key_digest(key), revoked_at__isnull=True).first()
    if api_key is None or not api_key.user.is_active:
        return None
    now = timezone.now()
    if api_key.last_used_at is None or (now - api_key.last_used_at).total_seconds() > 60:  # one write a minute
        ApiKey.objects.filter(pk=api_key.pk).update(last_used_at=now)
    return api_key
