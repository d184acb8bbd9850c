"""/play/: the public entry point (config/urls.py includes these)."""

from django.urls import path

from studies import views

urlpatterns = [
    path("", views.play, name="play"),
    path("consent/", views.play_consent, name="play_consent"),
    path("answers/<str:phase>/", views.play_survey, name="play_survey"),
    path("game/<uuid:public_id>/", views.play_game, name="play_game"),
    path("watch/", views.play_watch, name="play_watch"),
    path("transcripts/", views.play_transcripts, name="play_transcripts"),
    path("transcripts/<uuid:public_id>/", views.play_transcript_judge, name="play_transcript_judge"),
]
