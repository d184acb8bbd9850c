from django.urls import include, path

from arena import views

urlpatterns = [
    path("", views.home, name="home"),
    path("judge/<uuid:public_id>/", views.judge_console, name="judge_console"),
    path("witness/<uuid:public_id>/", views.witness_console, name="witness_console"),
    path("monitor/", views.monitor, name="monitor"),
    path("transcripts/", views.transcript_list, name="transcript_list"),
    path("transcripts/keys.json", views.transcript_keys, name="transcript_keys"),
    path("transcripts/<uuid:public_id>/", views.transcript_detail, name="transcript_detail"),
    path("transcripts/<uuid:public_id>.json", views.transcript_json, name="transcript_json"),
    path("results/", views.results, name="results"),
    path("results/judges/", views.results_judges, name="results_judges"),
    path("healthz", views.healthz, name="healthz"),
    path("entrant/", include("arena.entrant_urls")),
]
