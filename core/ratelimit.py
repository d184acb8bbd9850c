"""Rate limits of what people send on websockets: per socket and per user, by frame category.

Two categories: ``message`` (every frame that asks the server to do something: a message, a question,
a trade, a verdict, a state refresh) and ``typing`` (typing signals and keystroke frames, which are
relayed to the other side but cost little). Each has

- a token bucket per socket (:class:`TokenBucket`): ``ARENA_RATE_<CATEGORY>_BURST`` frames at once,
  refilled at ``ARENA_RATE_<CATEGORY>_PER_S`` a second; in memory, the consumer's own;
- a counter per user shared by all their sockets in every process (:func:`rate_user_take`):
  ``ARENA_RATE_<CATEGORY>_PER_USER`` frames in each window of ``ARENA_RATE_WINDOW_S`` seconds, kept in
  Django's cache (Redis in services mode, this process's memory in the embedded default); an anonymous
  socket (a spectator, a study's player without an account) has no user: every anonymous socket of one
  client address shares ``ARENA_RATE_<CATEGORY>_PER_ADDRESS`` instead (:func:`rate_address_atake`), and
  its connect (which reads the state) counts as one message frame.

A refused frame is answered with one ``rate_limited`` error frame by :class:`core.consumers.BaseConsumer`;
nothing of it is stored or relayed.

:func:`window_hit` is the one atomic counter of the HTTP side's limits (the APIs' throttles, log-ins and
sign-ups): a window of ``window_s`` seconds begins with a key's first hit, and every hit is counted in
one Redis transaction (INCR, EXPIRE NX, PTTL), so any number of processes and threads count exactly.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
import weakref
from dataclasses import dataclass, field

import redis.asyncio as aioredis
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

log = logging.getLogger(__name__)
MESSAGE, TYPING = "message", "typing"
CATEGORIES = (MESSAGE, TYPING)
CACHE_ALIAS = "default"


@dataclass(frozen=True)
class Limits:
    burst: int  # frames a socket may send at once
    per_s: float  # the socket's bucket refills this many a second
    per_user: int  # frames one user may send per window, all sockets together
    per_address: int  # frames the anonymous sockets of one client address may send per window, together
    window_s: int


def limits_for(category: str) -> Limits:
    """The configured limits of ``category`` (read now, so tests can change the settings)."""
    prefix = f"ARENA_RATE_{category.upper()}"
    return Limits(
        burst=getattr(settings, f"{prefix}_BURST"),
        per_s=getattr(settings, f"{prefix}_PER_S"),
        per_user=getattr(settings, f"{prefix}_PER_USER"),
        per_address=getattr(settings, f"{prefix}_PER_ADDRESS"),
        window_s=settings.ARENA_RATE_WINDOW_S,
    )


@dataclass
class TokenBucket:
    """``capacity`` tokens at most, ``per_s`` added a second; each allowed frame takes one."""

    capacity: float
    per_s: float
    tokens: float = field(default=-1.0)
    stamp: float = field(default_factory=time.monotonic)

    def __post_init__(self):
        if self.tokens < 0:
            self.tokens = self.capacity

    def take(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.per_s)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def socket_buckets() -> dict[str, TokenBucket]:
    """A new socket's buckets, one per category."""
    return {c: TokenBucket(capacity=limits_for(c).burst, per_s=limits_for(c).per_s) for c in CATEGORIES}


def rate_user_take(*, category: str, user_id: int | str, now: float | None = None, limit: int | None = None) -> bool:
    """Count one frame of ``category`` against the user's budget of the current window; False when the
    budget is spent (the frame is refused, and still counted: a flood does not refill it).

    A fixed window in the shared cache: the key of window ``floor(now / window_s)`` is incremented
    atomically (Redis INCR; a lock in local memory), or created with the window's lifetime by its first
    frame. (A fixed window lets up to twice the budget through around a window's edge.)"""
    limits = limits_for(category)
    limit = limits.per_user if limit is None else limit
    now = time.time() if now is None else now
    window = int(now // limits.window_s)
    key = _key(category, user_id, window)
    cache = caches[CACHE_ALIAS]
    for _ in range(3):  # the window's first frame creates its key; another process may be doing the same
        try:
            return cache.incr(key) <= limit
        except ValueError:  # no such key yet (or it has just expired)
            pass
        if cache.add(key, 1, timeout=limits.window_s + 1):
            return True  # the window's first frame (every limit is at least 1)
    return True  # the cache keeps losing the key: let the frame through rather than refuse everyone


async def rate_user_atake(*, category: str, user_id: int | str, limit: int | None = None) -> bool:
    """:func:`rate_user_take` from the event loop: at once with the in-memory cache; with Redis, one
    pipelined round trip (INCR, and EXPIRE NX for the window's first frame) on this loop's own client,
    with no hop to a thread; a Redis that fails lets the frame through (the socket's bucket still holds)."""
    cache = caches[CACHE_ALIAS]
    if isinstance(cache, LocMemCache):
        return rate_user_take(category=category, user_id=user_id, limit=limit)
    if not isinstance(cache, RedisCache):
        return await sync_to_async(rate_user_take, thread_sensitive=False)(
            category=category, user_id=user_id, limit=limit
        )
    limits = limits_for(category)
    limit = limits.per_user if limit is None else limit
    key = cache.make_and_validate_key(_key(category, user_id, int(time.time() // limits.window_s)))
    try:
        async with _loop_client(cache).pipeline(transaction=False) as pipe:
            pipe.incr(key)
            pipe.expire(key, limits.window_s + 1, nx=True)
            count, _ = await pipe.execute()
    except RedisError:
        return True
    return count <= limit


async def rate_address_atake(*, category: str, address: str) -> bool:
    """:func:`rate_user_atake` for a client address: ``ARENA_RATE_<CATEGORY>_PER_ADDRESS``, the budget of
    every anonymous socket from it together."""
    limit = limits_for(category).per_address
    return await rate_user_atake(category=category, user_id=f"address:{address[:64]}", limit=limit)


def _key(category: str, user_id: int | str, window: int) -> str:
    return f"arena:rate:{category}:{user_id}:{window}"


@dataclass(frozen=True)
class Hit:
    count: int  # hits of the key in its current window, this one included
    reset_s: float  # seconds until the window ends


_local_lock = threading.Lock()


def window_hit(*, key: str, window_s: int) -> Hit:
    """Count one hit of ``key``: a window of ``window_s`` seconds begins with its first hit.

    In Redis one transaction (MULTI: INCR, EXPIRE NX, PTTL; EXEC), so concurrent hits from any number of
    processes are each counted once, and a key never outlives its window. In local memory (the embedded
    default: one process) under a lock. A Redis that fails counts nothing (``count`` 0): a limit lets
    the request through rather than refuse everyone."""
    cache = caches[CACHE_ALIAS]
    if isinstance(cache, RedisCache):
        full = cache.make_and_validate_key(key)
        try:
            with cache._cache.get_client(full, write=True).pipeline(transaction=True) as pipe:
                pipe.incr(full)
                pipe.expire(full, window_s, nx=True)
                pipe.pttl(full)
                count, _, pttl = pipe.execute()
        except RedisError:
            log.exception("rate limit %s: Redis failed; the request is let through", key)
            return Hit(0, 0.0)
        return Hit(int(count), max(pttl, 0) / 1000 if pttl > 0 else float(window_s))
    with _local_lock:
        now = time.monotonic()
        count, ends = cache.get(key) or (0, now + window_s)
        if ends <= now:
            count, ends = 0, now + window_s
        cache.set(key, (count + 1, ends), timeout=max(1, int(ends - now) + 1))
    return Hit(count + 1, ends - now)


def window_read(*, key: str) -> Hit:
    """The hits of ``key``'s current window (not counting one); ``count`` 0 when it has none."""
    cache = caches[CACHE_ALIAS]
    if isinstance(cache, RedisCache):
        full = cache.make_and_validate_key(key)
        try:
            with cache._cache.get_client(full).pipeline(transaction=False) as pipe:
                pipe.get(full)
                pipe.pttl(full)
                count, pttl = pipe.execute()
        except RedisError:
            log.exception("rate limit %s: Redis failed; read as no hits", key)
            return Hit(0, 0.0)
        return Hit(int(count or 0), max(pttl, 0) / 1000)
    with _local_lock:
        now = time.monotonic()
        count, ends = cache.get(key) or (0, now)
    return Hit(count, ends - now) if ends > now else Hit(0, 0.0)


def window_clear(*, key: str) -> None:
    """Forget ``key``'s hits (a log-in that succeeded clears its account's failures)."""
    try:
        caches[CACHE_ALIAS].delete(key)
    except RedisError:
        log.exception("rate limit %s: Redis failed; not cleared", key)


_clients: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # event loop -> its redis.asyncio client


def _loop_client(cache):
    """This event loop's client of the cache's Redis (an asyncio client belongs to one loop)."""
    loop = asyncio.get_running_loop()
    client = _clients.get(loop)
    if client is None:
        location = cache._servers[0]
        client = _clients[loop] = aioredis.Redis.from_url(location, socket_connect_timeout=2, socket_timeout=2)
    return client
