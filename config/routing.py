from arena.routing import websocket_urlpatterns as arena_ws
from lambdastar.routing import websocket_urlpatterns as lambdastar_ws
from markets.routing import websocket_urlpatterns as markets_ws
from studies.routing import websocket_urlpatterns as studies_ws
from tables.routing import websocket_urlpatterns as tables_ws

websocket_urlpatterns = [*arena_ws, *markets_ws, *lambdastar_ws, *tables_ws, *studies_ws]
