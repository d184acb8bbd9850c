"""The project's URLconf plus one page no row of the matrix names (test_permissions uses it)."""

from django.http import HttpResponse
from django.urls import path

from config.urls import urlpatterns as project

urlpatterns = [*project, path("reports/<int:pk>/", lambda request, pk: HttpResponse("new"), name="new_page")]
