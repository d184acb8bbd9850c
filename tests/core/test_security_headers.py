"""The headers every response carries: a Content-Security-Policy that runs only the platform's own script
files (no inline script, no eval), and the HTTPS settings an operator turns on from the environment."""

import pytest

PAGES = ["/", "/accounts/login/", "/results/", "/transcripts/", "/api/docs/", "/healthz", "/api/v1/"]


def directives(header: str) -> dict[str, list[str]]:
    parts = (part.split() for part in header.split(";") if part.strip())
    return {words[0]: words[1:] for words in parts}


@pytest.mark.django_db
@pytest.mark.parametrize("path", PAGES)
def test_every_response_runs_only_the_platforms_own_scripts(client, path):
    response = client.get(path)
    policy = directives(response["Content-Security-Policy"])
    assert policy["script-src"] == ["'self'"]  # no 'unsafe-inline', no 'unsafe-eval', no other host
    assert policy["object-src"] == ["'none'"] and policy["frame-ancestors"] == ["'none'"]
    assert policy["default-src"] == ["'self'"]


@pytest.mark.django_db
def test_the_swagger_page_loads_its_start_up_script_as_a_file(client):
    page = client.get("/api/docs/").content.decode()
    assert "<script>" not in page.replace(" ", "")  # an inline start-up script would be blocked


@pytest.mark.django_db
def test_with_https_on_plain_http_is_redirected_but_the_health_check_is_not(client, settings):
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_HSTS_SECONDS = 3600
    assert client.get("/results/").status_code == 301
    assert client.get("/healthz").status_code in (200, 503)
    secure = client.get("/results/", secure=True)
    assert secure.status_code == 200 and secure["Strict-Transport-Security"] == "max-age=3600"


@pytest.mark.django_db
def test_behind_the_proxy_its_scheme_header_counts_as_https(client, settings):
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    assert client.get("/results/", headers={"x-forwarded-proto": "https"}).status_code == 200
    assert client.get("/results/", headers={"x-forwarded-proto": "http"}).status_code == 301
