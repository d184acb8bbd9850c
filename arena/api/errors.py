"""One body for every 4xx answer of the APIs: ``{"error": <message>, "code": <code>, "fields"?: {...}}``.

``error`` is a sentence that may be shown to the caller, ``code`` a stable machine-readable word
(``invalid``, ``not_authenticated``, ``authentication_failed``, ``permission_denied``, ``forbidden``,
``not_found``, ``throttled``, ``conflict``, ``not_pending``, ``already_answered``, ``bad_parameter``, …),
``fields`` (validation errors only) each bad field's messages. For clients written against DRF's default
bodies (deprecated): ``detail`` repeats ``error``, and a validation error's fields also stand at the top.
401 answers carry ``WWW-Authenticate: Token``, 429 answers ``Retry-After`` (seconds). A failure of the
server answers 500 with the same body (code ``server_error``), never an HTML page.
"""

from django.core.exceptions import PermissionDenied
from django.http import Http404, JsonResponse
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from core.errors import ArenaError, Closed, Conflict, NotAllowed


def error_body(message: str, code: str, fields: dict | None = None) -> dict:
    body = {"error": message, "code": code, "detail": message}
    if fields:
        body["fields"] = fields
    return body


def _flatten(detail) -> str:
    if isinstance(detail, dict):
        return "; ".join(f"{key}: {_flatten(value)}" for key, value in detail.items())
    if isinstance(detail, list):
        return " ".join(_flatten(item) for item in detail)
    return str(detail)


def exception_handler(exc, context):
    """DRF's handler (status, headers: WWW-Authenticate, Retry-After), with the body reshaped."""
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(*exc.args)
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied(*exc.args)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        detail = exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
        body = error_body(f"Invalid input: {_flatten(detail)}", "invalid", detail)
        response.data = {**{k: v for k, v in detail.items() if k not in body}, **body}
    else:
        codes = exc.get_codes() if isinstance(exc, exceptions.APIException) else "error"
        response.data = error_body(_flatten(exc.detail), codes if isinstance(codes, str) else exc.default_code)
    return response


def refused(exc: ArenaError) -> Response:
    """A service's refusal: 403 not allowed, 409 closed or in conflict, 400 otherwise."""
    status = 403 if isinstance(exc, NotAllowed) else 409 if isinstance(exc, (Closed, Conflict)) else 400
    return Response(error_body(str(exc), exc.code), status=status)


def error_json(status: int, message: str, code: str, **headers) -> JsonResponse:
    """The same body from a plain Django view (the long poll)."""
    return JsonResponse(
        error_body(message, code), status=status, headers=headers, json_dumps_params={"separators": (",", ":")}
    )


def server_error(request):
    """The project's 500 page (handler500): under /api/ the one error body (code ``server_error``; a
    database or Redis that is down answers so too), else the friendly page."""
    if request.path.startswith("/api/"):
        return error_json(500, "The server could not handle this request; try again shortly.", "server_error")
    from django.views.defaults import server_error as page

    return page(request)


def not_found(request, exception):
    """The project's 404 page (handler404, with DEBUG off): under /api/ the one error body, else Django's."""
    if request.path.startswith("/api/"):
        return error_json(404, "No such API endpoint.", "not_found")
    from django.views.defaults import page_not_found

    return page_not_found(request, exception)
