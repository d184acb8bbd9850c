import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

# /static/: WhiteNoise, a middleware (core.staticfiles) when SERVE_STATIC is on

from channels.auth import AuthMiddlewareStack  # noqa: E402  after get_asgi_application(), which sets Django up
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402  after get_asgi_application(), which sets Django up
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402  after get_asgi_application(), which sets Django up

from config.routing import websocket_urlpatterns  # noqa: E402  after get_asgi_application(), which sets Django up
from lpp.lpp2.asgi import lpp2_application  # noqa: E402  after get_asgi_application(), which sets Django up

application = lpp2_application(
    ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
        }
    )
)

from core import embedded_beat  # noqa: E402  started once the application is built

embedded_beat.start_from_settings()  # only in the embedded default (tasks in-process)

from core import gcpolicy  # noqa: E402  last: the heap it freezes holds all of the above

gcpolicy.freeze_startup_heap()  # the start-up heap out of the collector's full scans (ARENA_GC_FREEZE)
