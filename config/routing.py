from arena.routing import websocket_urlpatterns as arena_ws
from markets.routing import websocket_urlpatterns as markets_ws

websocket_urlpatterns = [*arena_ws, *markets_ws]
