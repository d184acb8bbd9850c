from django.urls import path

from tables import consumers

websocket_urlpatterns = [
    path("ws/tables/<int:game_id>/", consumers.GameConsumer.as_asgi()),
]
