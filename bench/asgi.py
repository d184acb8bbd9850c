"""The benchmarks' daphne application: the platform's own (config.asgi), plus the Channels tutorial's
chat (bench.tutorial) at /ws/chat/<room>/ behind the tutorial's own middleware stack."""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.settings")

from config.asgi import application as platform  # sets Django up first: before the tutorial's models

# isort: split
from channels.auth import AuthMiddlewareStack
from channels.routing import URLRouter
from channels.security.websocket import AllowedHostsOriginValidator

from bench.tutorial.routing import websocket_urlpatterns

tutorial = AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))


async def application(scope, receive, send):
    if scope["type"] == "websocket" and scope["path"].startswith("/ws/chat/"):
        return await tutorial(scope, receive, send)
    return await platform(scope, receive, send)


from bench import _memdiag  # noqa: E402  started once the application is built
from bench import tracing as trace  # noqa: E402  the tracer wraps the platform's modules: it loads after them

_memdiag.start_from_settings()  # only with ARENA_MEMDIAG set (bench.soak --memdiag)
trace.install_from_env()  # only with bench.chat_latency --trace / --profile
