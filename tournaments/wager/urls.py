from django.urls import path

from tournaments.wager import views

app_name = "wager"

urlpatterns = [
    path("", views.session_list, name="sessions"),
    path("sessions/<int:pk>/", views.session_detail, name="session"),
    path("sessions/<int:pk>/report/", views.session_report, name="report"),
    path("sessions/<int:pk>/transcripts.json", views.session_transcripts_json, name="transcripts_json"),
    path("trials/<int:pk>/verdicts/", views.trial_verdicts, name="trial_verdicts"),
]
