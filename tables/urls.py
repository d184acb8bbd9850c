from django.urls import path

from tables import views

app_name = "tables"
urlpatterns = [
    path("", views.game_list, name="games"),
    path("new/", views.game_new, name="new"),
    path("<int:game_id>/", views.game_page, name="game"),
    path("<int:game_id>/live/", views.game_live, name="live"),
    path("<int:game_id>/export.jsonl", views.game_export, name="export"),
]
