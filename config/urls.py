from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from arena.login_forms import LimitedAdminAuthenticationForm, LimitedAuthenticationForm
from core.metrics import metrics_view

admin.site.site_header = "Turing Arena: organisers"
admin.site.site_title = "Turing Arena"
admin.site.index_title = "Contests, entries, interrogations"
admin.site.login_form = LimitedAdminAuthenticationForm  # failed log-ins lock out (arena.services.logins)

handler404 = "arena.api.errors.not_found"  # under /api/, the APIs' one error body
handler500 = "arena.api.errors.server_error"  # likewise

ENTRANTS_API = [path("api/v1/", include("arena.api.urls"))]

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/login/", auth_views.LoginView.as_view(authentication_form=LimitedAuthenticationForm), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("markets/", include("markets.urls")),
    path("contests/", include("tournaments.loebner.urls")),
    path("contests/", include("lpp.urls")),  # a contest's JComm logs, beside its other downloads
    path("wager/", include("tournaments.wager.urls")),
    path("tables/", include("tables.urls")),
    path("studies/", include("studies.urls")),
    path("play/", include("studies.play_urls")),
    # the entrants' API's OpenAPI schema (/api/v1/ only: the Λ* API is documented on its own), at its
    # stable URL and at its first one, and its browsable reference (Swagger UI from /static/, no CDN)
    path("api/schema/", SpectacularAPIView.as_view(patterns=ENTRANTS_API), name="api_schema_latest"),
    path("api/v1/schema/", SpectacularAPIView.as_view(patterns=ENTRANTS_API), name="api_schema"),
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api_schema_latest"), name="api_docs"),
    path("api/v1/", include("arena.api.urls")),
    path("lambdastar/", include("lambdastar.urls")),
    path("api/lambdastar/", include("lambdastar.api")),
    path("metrics", metrics_view, name="metrics"),
    path("", include("arena.urls")),
]
