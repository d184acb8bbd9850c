"""The APIs' throttles (DRF's): requests per window, per client address and per token.

``AddressThrottle`` counts every request of an address, authenticated or not (the entrants' API checks it
before authentication, so guessing tokens is throttled too); ``TokenThrottle`` every request of one API key
(or DRF token, or session user). Limits come from settings (``ARENA_API_RATE_PER_ADDRESS``,
``ARENA_API_RATE_PER_TOKEN`` in ``ARENA_API_RATE_WINDOW_S`` seconds), read at each request. Each request is
counted by :func:`core.ratelimit.window_hit`, one atomic transaction in Redis in services mode (every
process shares the counts, and parallel requests are each counted once: DRF's own cache throttle reads a
list and writes it back, so parallel requests overwrite each other's counts); a window begins with a
client's first request. A long poll is one request. A refused request answers 429 with ``Retry-After``.
"""

from django.conf import settings
from rest_framework.authtoken.models import Token
from rest_framework.throttling import SimpleRateThrottle

from arena.models import ApiKey
from core.ratelimit import window_hit


class _ConfiguredRate(SimpleRateThrottle):
    cache_format = "api-rate:%(scope)s:%(ident)s"  # a counter (window_hit), not DRF's list of times
    limit_setting = ""

    def get_rate(self):
        return "settings"

    def parse_rate(self, rate):
        return getattr(settings, self.limit_setting), settings.ARENA_API_RATE_WINDOW_S

    def allow_request(self, request, view):
        key = self.get_cache_key(request, view)
        if key is None:
            return True
        self.num_requests, self.duration = self.parse_rate(None)
        self.hit = window_hit(key=key, window_s=self.duration)
        return self.hit.count <= self.num_requests

    def wait(self):
        return self.hit.reset_s


class AddressThrottle(_ConfiguredRate):
    scope = "address"
    limit_setting = "ARENA_API_RATE_PER_ADDRESS"

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class TokenThrottle(_ConfiguredRate):
    scope = "token"
    limit_setting = "ARENA_API_RATE_PER_TOKEN"

    def get_cache_key(self, request, view):
        user = request.user
        if not user or not user.is_authenticated:
            return None  # counted by address only
        auth = request.auth
        if isinstance(auth, ApiKey):
            ident = f"key{auth.pk}"
        elif isinstance(auth, Token):
            ident = f"drf{user.pk}"
        else:
            ident = f"user{user.pk}"
        return self.cache_format % {"scope": self.scope, "ident": ident}


def throttle_wait(throttle_class, request, view=None) -> float | None:
    """None when ``request`` may go on; otherwise the seconds to wait (at least 1)."""
    throttle = throttle_class()
    if throttle.allow_request(request, view):
        return None
    return max(1.0, throttle.wait() or 1.0)


class AddressFirst:
    """APIView mixin: the address is counted before authentication (a bad token is throttled too)."""

    def perform_authentication(self, request):
        wait = throttle_wait(AddressThrottle, request, self)
        if wait is not None:
            self.throttled(request, wait)
        super().perform_authentication(request)

    def get_throttles(self):
        return [throttle for throttle in super().get_throttles() if not isinstance(throttle, AddressThrottle)]
