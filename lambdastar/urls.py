from django.urls import path, re_path
from django.views.generic import RedirectView

from lambdastar import views

app_name = "lambdastar"

urlpatterns = [
    path("", RedirectView.as_view(pattern_name="lambdastar:experiment_list"), name="index"),
    path("experiments/", views.experiment_list, name="experiment_list"),
    path("experiments/<int:pk>/", views.experiment_detail, name="experiment_detail"),
    path("experiments/<int:pk>/results.json", views.experiment_results, name="experiment_results"),
    re_path(
        r"^experiments/(?P<pk>[0-9]+)/(?P<action>launch|cancel|resume|clone)/$",
        views.experiment_action,
        name="experiment_action",
    ),
    path("experiments/<int:pk>/plots/<slug:name>.svg", views.figure_svg, name="figure_svg"),
    path("experiments/<int:pk>/plots/<slug:name>.csv", views.figure_csv, name="figure_csv"),
    path("experiments/<int:pk>/episodes.csv", views.episodes_csv, name="episodes_csv"),
    path("experiments/<int:pk>/episodes.jsonl", views.episodes_jsonl, name="episodes_jsonl"),
]
