from arena.routing import websocket_urlpatterns as arena_ws
from markets.routing import websocket_urlpatterns as markets_ws

websocket_urlpatterns = [*arena_ws, *markets_ws]

from lambdastar.routing import websocket_urlpatterns as lambdastar_ws  # noqa: E402

websocket_urlpatterns += lambdastar_ws

from tables.routing import websocket_urlpatterns as tables_ws  # noqa: E402

websocket_urlpatterns += tables_ws
from studies.routing import websocket_urlpatterns as studies_ws  # noqa: E402

websocket_urlpatterns += studies_ws
