"""The platform's metrics in Prometheus' text format (prometheus_client), served at /metrics.

Two kinds:
- **counted by this process** as it works: HTTP requests, the consoles' websockets open and opened,
  message delivery latency (a message's storing to its push on a socket), engine calls, trades. Each
  daphne counts its own: scrape every daphne process.
- **read when scraped** from the database and the broker, the same from any process: live
  interrogations, games and experiments, the /play/ lobby, Celery queue depths, open circuit breakers.
  Apps register them with :func:`snapshot_register` (AppConfig.ready); core imports no app.

/metrics answers only a request bearing ``Authorization: Bearer <ARENA_METRICS_TOKEN>``; without the
setting it answers 404 (the docs' operations page says how to scrape it and what to alert on).
"""

from __future__ import annotations

import hmac
import logging
import time
from collections.abc import Callable, Iterable
from datetime import datetime

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily

log = logging.getLogger(__name__)

REGISTRY = CollectorRegistry(auto_describe=True)

HTTP_REQUESTS = Counter(
    "arena_http_requests", "HTTP requests answered by this process", ["method", "status"], registry=REGISTRY
)
WEBSOCKETS_OPEN = Gauge("arena_websockets_open", "websockets open on this process", ["console"], registry=REGISTRY)
WEBSOCKETS_OPENED = Counter(
    "arena_websockets_opened", "websockets accepted by this process", ["console"], registry=REGISTRY
)
DELIVERY_SECONDS = Histogram(
    "arena_message_delivery_seconds",
    "from a message's storing to its push on a websocket of this process",
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
    registry=REGISTRY,
)
ENGINE_CALLS = Counter(
    "arena_engine_calls",
    "engine calls logged by this process (outcome: ok, error, timeout, skipped while a breaker is open)",
    ["engine", "outcome"],
    registry=REGISTRY,
)
TRADES = Counter("arena_trades", "trades placed through this process (repeated clicks aside)", registry=REGISTRY)
# name -> (help, reader): a reader returns [(labels, value)] when /metrics is read
_SNAPSHOTS: dict[str, tuple[str, Callable[[], Iterable[tuple[dict, float]]]]] = {}


def snapshot_register(name: str, help_text: str, reader: Callable[[], Iterable[tuple[dict, float]]]) -> None:
    """A gauge read when /metrics is scraped: ``reader()`` gives ``[(labels, value), ...]``."""
    _SNAPSHOTS[name] = (help_text, reader)


class _Snapshots:
    def collect(self):
        for name, (help_text, reader) in _SNAPSHOTS.items():
            try:
                rows = list(reader())
            except Exception:  # a backend down: the process's own counters still come out
                log.exception("metric %s could not be read", name)
                continue
            labels = sorted({key for row_labels, _ in rows for key in row_labels})
            family = GaugeMetricFamily(name, help_text, labels=labels)
            for row_labels, value in rows:
                family.add_metric([str(row_labels.get(key, "")) for key in labels], float(value))
            yield family

    def describe(self):
        return []


REGISTRY.register(_Snapshots())


def metrics_view(request):
    """GET /metrics: the text format, to a request bearing the token; 404 while none is configured."""
    from django.conf import settings
    from django.http import Http404, HttpResponse

    token = settings.ARENA_METRICS_TOKEN
    if not token:
        raise Http404("metrics are off: set ARENA_METRICS_TOKEN")
    if not token_allows(request.headers.get("Authorization"), token):
        response = HttpResponse("401: Authorization: Bearer <ARENA_METRICS_TOKEN> required\n", status=401)
        response["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return response
    return HttpResponse(generate_latest(REGISTRY), content_type=CONTENT_TYPE_LATEST)


_QUEUES: list[str] = []


def queue_register(name: str) -> None:
    """A Celery queue whose depth /metrics reports (beside the default queue and ARENA_BOTS_QUEUE)."""
    if name not in _QUEUES:
        _QUEUES.append(name)


def queue_depths() -> list[tuple[dict, float]]:
    """Messages waiting in each Celery queue on the Redis broker (none with tasks run in-process)."""
    from django.conf import settings

    url = getattr(settings, "CELERY_BROKER_URL", "")
    if not url.startswith(("redis://", "rediss://")):
        return []
    client = _broker_client(url)
    prefix = getattr(settings, "CELERY_BROKER_TRANSPORT_OPTIONS", {}).get("global_keyprefix", "")
    names = [settings.CELERY_TASK_DEFAULT_QUEUE, getattr(settings, "ARENA_BOTS_QUEUE", ""), *_QUEUES]
    return [({"queue": name}, client.llen(prefix + name)) for name in dict.fromkeys(names) if name]


_clients: dict = {}


def _broker_client(url: str):
    import redis

    if url not in _clients:
        _clients[url] = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2)
    return _clients[url]


def token_allows(header: str | None, token: str) -> bool:
    """``Authorization: Bearer <token>``, compared in constant time."""
    if not token or not header or not header.startswith("Bearer "):
        return False
    return hmac.compare_digest(header.removeprefix("Bearer ").strip().encode(), token.encode())


def delivery_observe(at: str | None) -> None:
    """A pushed message's delivery latency, from its stored time (the payload's ISO ``at``)."""
    if not at:
        return
    try:
        stored = datetime.fromisoformat(at).timestamp()
    except (TypeError, ValueError):
        return
    DELIVERY_SECONDS.observe(max(0.0, time.time() - stored))


class RequestCountMiddleware:
    """Counts each HTTP request this process answers, by method and status class (2xx, 4xx…)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        method = request.method if request.method in {"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"} else "other"
        HTTP_REQUESTS.labels(method=method, status=f"{response.status_code // 100}xx").inc()
        return response


snapshot_register("arena_celery_queue_depth", "messages waiting in each Celery queue", queue_depths)
