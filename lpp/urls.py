from django.urls import path

from lpp import views

app_name = "lpp"

urlpatterns = [
    path("<int:contest_id>/transcripts-jcomm.zip", views.contest_jcomm_zip, name="contest_jcomm_zip"),
    path("lpp2/rank/<str:token>/", views.lpp2_rank, name="lpp2_rank"),
]
