from arena.routing import websocket_urlpatterns as arena_ws

websocket_urlpatterns = [*arena_ws]
