from django.urls import path

from tournaments.loebner import api, views

app_name = "loebner"

urlpatterns = [
    path("", views.contest_list, name="contests"),
    path("<int:contest_id>/results/", views.results, name="results"),
    path("<int:contest_id>/tie/", views.tie_decide, name="tie_decide"),
    path("<int:contest_id>/transcripts.json", views.transcripts_json, name="transcripts_json"),
    path("<int:contest_id>/results.json", views.results_json, name="results_json"),
    path("<int:contest_id>/results.csv", views.results_csv, name="results_csv"),
    path("<int:contest_id>/board/", views.board, name="board"),
    path("<int:contest_id>/board.json", views.board_json, name="board_json"),
    path("<int:contest_id>/qualifying/", views.qualifying, name="qualifying"),
    path("<int:contest_id>/vote/<int:order>/", views.vote, name="vote"),
    path("<int:contest_id>/rank/", views.rank, name="rank"),
    path("api/<int:contest_id>/entries/", api.ContestEntries.as_view(), name="api_entries"),
]
