from django.urls import path

from studies import consumers

websocket_urlpatterns = [
    path("ws/play/<int:study_id>/lobby/", consumers.LobbyConsumer.as_asgi()),
    path("ws/play/judge/<uuid:public_id>/", consumers.PlayJudgeConsumer.as_asgi()),
    path("ws/play/witness/<uuid:public_id>/", consumers.PlayWitnessConsumer.as_asgi()),
]
