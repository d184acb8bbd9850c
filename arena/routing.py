from django.urls import path

from arena import consumers

websocket_urlpatterns = [
    path("ws/judge/<uuid:public_id>/", consumers.JudgeConsumer.as_asgi()),
    path("ws/witness/<uuid:public_id>/", consumers.WitnessConsumer.as_asgi()),
    path("ws/monitor/", consumers.MonitorConsumer.as_asgi()),
]
