from django.urls import path

from lpp import views

app_name = "lpp"

urlpatterns = [
    path("<int:contest_id>/transcripts-jcomm.zip", views.contest_jcomm_zip, name="contest_jcomm_zip"),
]
