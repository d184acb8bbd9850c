"""DEBUG off (as the embedded default now serves): friendly error pages with a way home, static files
served by WhiteNoise with cache headers."""

import pytest
from django.test import RequestFactory
from django.views import defaults

HOME_LINK = '<a href="/">Go to the home page</a>'


def test_an_unknown_page_is_the_friendly_404_not_djangos_debug_page(client, settings):
    assert settings.DEBUG is False
    page = client.get("/no/such/<page>/")
    body = page.content.decode()
    assert page.status_code == 404 and "Page not found" in body and HOME_LINK in body
    assert "/no/such/%3Cpage%3E/" in body and "<page>" not in body  # the path, escaped
    assert "Resolver404" not in body and "URLconf" not in body  # nothing of Django's debug page
    assert '<a href="/accounts/login/?next=' in body  # anonymous: told where to log in


def test_a_refusal_of_a_page_explains_itself(client, cast):
    client.force_login(cast.jude)
    page = client.get("/results/judges/")
    body = page.content.decode()
    assert page.status_code == 403 and "You may not open this page" in body and "Organisers only." in body
    assert HOME_LINK in body and "next=" not in body  # logged in: no log-in link


@pytest.mark.parametrize(
    "view, status, words",
    [
        (defaults.server_error, 500, "Something went wrong on our side"),
        (lambda request: defaults.bad_request(request, ValueError("x")), 400, "could not read this request"),
    ],
)
def test_the_pages_rendered_without_a_request_are_friendly_too(view, status, words):
    page = view(RequestFactory().get("/"))
    body = page.content.decode()
    assert page.status_code == status and words in body and HOME_LINK in body


def test_an_expired_form_says_so(cast):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(cast.jude)
    page = client.post("/accounts/logout/")
    assert page.status_code == 403 and "This form has expired" in page.content.decode()


def test_static_files_are_served_with_debug_off_with_cache_headers(client, settings):
    assert settings.DEBUG is False
    script = client.get("/static/arena/judge.js")
    assert script.status_code == 200 and script["Cache-Control"] == "max-age=60, public"
    assert b"".join(script.streaming_content).strip()
    admin_css = client.get("/static/admin/css/base.css")  # the admin's own files
    swagger = client.get("/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js")  # /api/docs/
    assert admin_css.status_code == 200 and swagger.status_code == 200
    assert client.get("/static/arena/no-such.js").status_code == 404
