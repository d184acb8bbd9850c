from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

admin.site.site_header = "Turing Arena: organisers"
admin.site.site_title = "Turing Arena"
admin.site.index_title = "Contests, entries, interrogations"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("markets/", include("markets.urls")),
    path("contests/", include("tournaments.loebner.urls")),
    path("wager/", include("tournaments.wager.urls")),
    path("tables/", include("tables.urls")),
    path("studies/", include("studies.urls")),
    path("play/", include("studies.play_urls")),
    # the entrants' API's OpenAPI schema: /api/v1/ only (the Λ* API is documented on its own)
    path("api/v1/schema/", SpectacularAPIView.as_view(patterns=[path("api/v1/", include("arena.api.urls"))]),
         name="api_schema"),
    path("api/v1/", include("arena.api.urls")),
    path("lambdastar/", include("lambdastar.urls")),
    path("api/lambdastar/", include("lambdastar.api")),
    path("", include("arena.urls")),
]
