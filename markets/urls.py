from django.urls import path

from markets import views
from markets.conversation import views as conversation_views

app_name = "markets"
urlpatterns = [
    path("", views.game_list, name="games"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("conversations/", conversation_views.xmarket_list, name="xmarkets"),
    path("conversations/results/", conversation_views.xmarket_results, name="xresults"),
    path("conversations/results.json", conversation_views.xmarket_results_json, name="xresults_json"),
    path("conversations/results.csv", conversation_views.xmarket_results_csv, name="xresults_csv"),
    path("conversations/trades.csv", conversation_views.xmarket_trades_csv, name="xtrades_csv"),
    path("conversations/<uuid:public_id>/", conversation_views.xmarket_watch, name="xwatch"),
    path("conversations/<uuid:public_id>/state.json", conversation_views.xmarket_state_api, name="xstate_api"),
    path("conversations/<uuid:public_id>/trade/", conversation_views.xmarket_trade_api, name="xtrade_api"),
    path("bettors/<str:username>/", conversation_views.bettor_profile, name="bettor_profile"),
    path("<uuid:public_id>/join/", views.game_join, name="join"),
    path("<uuid:public_id>/", views.bettor_console, name="bettor"),
    path("<uuid:public_id>/target/", views.target_console, name="target"),
    path("<uuid:public_id>/watch/", views.spectator, name="watch"),
    path("<uuid:public_id>/state.json", views.state_api, name="state_api"),
    path("<uuid:public_id>/log/", views.game_log, name="log"),
]
