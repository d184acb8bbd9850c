from django.urls import path

from studies import views

app_name = "studies"

urlpatterns = [
    path("", views.study_list, name="list"),
    path("<int:pk>/", views.study_detail, name="detail"),
    path("<int:pk>/export/<str:what>.<str:fmt>", views.study_export, name="export"),
]
