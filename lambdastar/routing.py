from django.urls import path

from lambdastar import consumers

websocket_urlpatterns = [
    path("ws/lambdastar/experiments/<int:pk>/", consumers.ExperimentConsumer.as_asgi()),
]
