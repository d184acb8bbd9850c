from django.urls import path

from markets import views

app_name = "markets"
urlpatterns = [
    path("", views.game_list, name="games"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("<uuid:public_id>/join/", views.game_join, name="join"),
    path("<uuid:public_id>/", views.bettor_console, name="bettor"),
    path("<uuid:public_id>/target/", views.target_console, name="target"),
    path("<uuid:public_id>/watch/", views.spectator, name="watch"),
    path("<uuid:public_id>/state.json", views.state_api, name="state_api"),
    path("<uuid:public_id>/log/", views.game_log, name="log"),
]
