from django.urls import path

from markets import consumers

websocket_urlpatterns = [
    path("ws/markets/<uuid:public_id>/bettor/", consumers.BettorConsumer.as_asgi()),
    path("ws/markets/<uuid:public_id>/target/", consumers.TargetConsumer.as_asgi()),
    path("ws/markets/<uuid:public_id>/watch/", consumers.SpectatorConsumer.as_asgi()),
]
websocket_urlpatterns.append(
    path("ws/markets/conversations/<uuid:public_id>/", consumers.ConversationMarketConsumer.as_asgi())
)
