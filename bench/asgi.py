"""The benchmarks' daphne application: the platform's own (config.asgi), plus the Channels tutorial's
chat (bench.tutorial) at /ws/chat/<room>/ behind the tutorial's own middleware stack."""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.settings")

from config.asgi import application as platform  # noqa: E402  (sets Django up first: before the tutorial's models)

# isort: split
from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from bench.tutorial.routing import websocket_urlpatterns  # noqa: E402

tutorial = AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))


async def application(scope, receive, send):
    if scope["type"] == "websocket" and scope["path"].startswith("/ws/chat/"):
        return await tutorial(scope, receive, send)
    return await platform(scope, receive, send)


from bench import _memdiag  # noqa: E402
from bench import tracing as trace  # noqa: E402

_memdiag.start_from_settings()  # only with ARENA_MEMDIAG set (bench.soak --memdiag)
trace.install_from_env()  # only with bench.chat_latency --trace / --profile
