from django.urls import include, path

from arena import views
from arena.results import views as results_views

urlpatterns = [
    path("", views.home, name="home"),
    path("judge/<uuid:public_id>/", views.judge_console, name="judge_console"),
    path("witness/<uuid:public_id>/", views.witness_console, name="witness_console"),
    path("monitor/", views.monitor, name="monitor"),
    path("transcripts/", views.transcript_list, name="transcript_list"),
    path("transcripts/keys.json", views.transcript_keys, name="transcript_keys"),
    path("transcripts/<uuid:public_id>/", views.transcript_detail, name="transcript_detail"),
    path("transcripts/<uuid:public_id>.json", views.transcript_json, name="transcript_json"),
    path("results/", results_views.results_page, name="results"),
    path("results/results.json", results_views.results_json, name="results_json"),
    path("results/ratings.csv", results_views.results_csv, {"table": "ratings"}, name="results_ratings_csv"),
    path("results/rates.csv", results_views.results_csv, {"table": "rates"}, name="results_rates_csv"),
    path("results/matrix.csv", results_views.results_csv, {"table": "matrix"}, name="results_matrix_csv"),
    path("results/entries/<int:pk>/", results_views.entry_page, name="results_entry"),
    path("results/entries/<int:pk>/entry.json", results_views.entry_json, name="results_entry_json"),
    path("results/entries/<int:pk>/rates.csv", results_views.entry_csv, name="results_entry_csv"),
    path("results/judges/", results_views.judges_page, name="results_judges"),
    path("results/judges/judges.json", results_views.judges_json, name="results_judges_json"),
    path("results/judges/judges.csv", results_views.judges_csv, name="results_judges_csv"),
    path("healthz", views.healthz, name="healthz"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("entrant/", include("arena.entrant_urls")),
]
