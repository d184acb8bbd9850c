"""What the entrants' API answers, for its OpenAPI schema (/api/v1/schema/) only: the views shape their
answers themselves (arena/api/views.py); these serializers describe those shapes."""

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import serializers


class ApiKeyScheme(OpenApiAuthenticationExtension):
    target_class = "arena.api.auth.ApiKeyAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "`Token <key>`: a key from the API keys page (/entrant/keys/), shown once when "
            "created; DRF tokens issued before keys existed work too.",
        }


class EntryOut(serializers.Serializer):
    id = serializers.IntegerField()
    display_name = serializers.CharField()
    engine = serializers.CharField()
    settings = serializers.JSONField(help_text="The engine's settings; secrets are masked.")
    active = serializers.BooleanField()
    healthy = serializers.BooleanField()
    last_error = serializers.CharField(allow_blank=True)
    created_at = serializers.DateTimeField()


class Refusal(serializers.Serializer):
    """The one body of every 4xx answer (arena.api.errors)."""

    error = serializers.CharField(help_text="What went wrong, a sentence that may be shown.")
    code = serializers.CharField(help_text="A stable machine-readable word: invalid, not_found, throttled, ...")
    fields = serializers.DictField(required=False, help_text="Validation errors only: each bad field's messages.")
    detail = serializers.CharField(required=False, help_text="Deprecated: the same as error.")


class ProbeIn(serializers.Serializer):
    message = serializers.CharField(required=False, max_length=500, help_text="Default: a greeting.")


class ProbeOut(serializers.Serializer):
    outcome = serializers.CharField()
    latency_ms = serializers.IntegerField()
    reply = serializers.CharField(allow_blank=True)
    error = serializers.CharField(allow_blank=True)
    healthy = serializers.BooleanField(allow_null=True)


class HistoryLine(serializers.Serializer):
    role = serializers.CharField()
    text = serializers.CharField(allow_blank=True)


class PendingMessage(serializers.Serializer):
    conversation = serializers.UUIDField()
    seq = serializers.IntegerField()
    message = serializers.CharField(allow_blank=True)
    history = HistoryLine(many=True)


class PendingOut(serializers.Serializer):
    pending = PendingMessage(many=True)


class ReplyOut(serializers.Serializer):
    reply_to = serializers.IntegerField(help_text="The judge message (its seq) this reply answers.")
    text = serializers.CharField(help_text="The reply as the judge will see it (cleaned).")
    deliver_at = serializers.DateTimeField(
        help_text="When the judge sees it: the entry's typing delay after the judge's message."
    )


class ConsentOut(serializers.Serializer):
    donating = serializers.BooleanField()
    since = serializers.DateTimeField(allow_null=True)


class ConsentWithdrawn(serializers.Serializer):
    donating = serializers.BooleanField()
    purged = serializers.IntegerField()


class Latency(serializers.Serializer):
    n = serializers.IntegerField(help_text="Answered calls in the window.")
    p50 = serializers.IntegerField(allow_null=True)
    p95 = serializers.IntegerField(allow_null=True)
    p99 = serializers.IntegerField(allow_null=True)


class CallOut(serializers.Serializer):
    id = serializers.IntegerField()
    at = serializers.DateTimeField()
    kind = serializers.ChoiceField(choices=["reply", "probe", "pull"])
    subject = serializers.CharField(allow_blank=True)
    attempt = serializers.IntegerField()
    outcome = serializers.ChoiceField(choices=["ok", "error", "timeout", "skipped"])
    latency_ms = serializers.IntegerField()
    error = serializers.CharField(allow_blank=True, help_text="The failure's neutral category.")
    detail = serializers.CharField(allow_blank=True)


class CallPage(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = CallOut(many=True)


class Outcomes(serializers.Serializer):
    ok = serializers.IntegerField()
    error = serializers.IntegerField()
    timeout = serializers.IntegerField()
    skipped = serializers.IntegerField()


class HealthOut(serializers.Serializer):
    breaker = serializers.ChoiceField(
        choices=["closed", "open", "half_open"],
        help_text="open: calls are skipped; half_open: the next call is a trial.",
    )
    healthy = serializers.BooleanField()
    consecutive_failures = serializers.IntegerField()
    unhealthy_since = serializers.DateTimeField(allow_null=True)
    last_error = serializers.CharField(allow_blank=True)
    last_error_at = serializers.DateTimeField(allow_null=True)
    last_ok_at = serializers.DateTimeField(allow_null=True)
    window_s = serializers.IntegerField(help_text="The window of calls and latency_ms: the last day.")
    calls = Outcomes()
    latency_ms = Latency()
    recent_errors = CallOut(many=True)


class RehearsalOut(serializers.Serializer):
    interrogation = serializers.UUIDField()
    judge = serializers.ChoiceField(choices=["bot", "self"])
    status = serializers.CharField()
    deadline = serializers.DateTimeField(allow_null=True)
    page = serializers.URLField(help_text="Where to watch it (bot judge) or to judge it (self).")
    progress = serializers.URLField(help_text="Where it stands (GET): status, questions and answers so far.")


class RehearsalProgress(serializers.Serializer):
    interrogation = serializers.UUIDField()
    status = serializers.ChoiceField(choices=["scheduled", "running", "ended", "aborted"])
    end_reason = serializers.CharField(
        allow_blank=True, help_text='Why it ended ("rehearsal done": the test judge asked everything).'
    )
    deadline = serializers.DateTimeField(allow_null=True)
    questions = serializers.IntegerField(help_text="The judge's messages so far.")
    answers = serializers.IntegerField(help_text="The entry's answers so far.")


class RootOut(serializers.Serializer):
    entries = serializers.URLField()
    learner_consent = serializers.URLField()
    schema = serializers.URLField()
    docs = serializers.URLField()
    api_keys = serializers.URLField()
    endpoints = serializers.ListField(child=serializers.CharField())


PAGE = OpenApiParameter("page", int, required=False, description="Page number, from 1.")
NOT_FOUND = OpenApiResponse(description="No such entry of yours (or conversation of the entry).")
INVALID = OpenApiResponse(description="The request's fields are invalid.")
REFUSED = OpenApiResponse(Refusal, description="Refused by the platform's rules.")
WAIT = OpenApiParameter(
    "wait", float, required=False, description="Seconds to wait for a pending message (0 to the server's maximum)."
)


def long_poll_path(result, generator, request, public):
    """drf-spectacular postprocessing hook: the pull long poll is an async Django view (it must end when
    its client leaves), which the generator does not see; describe it as the DRF views are described."""
    pending = {
        "type": "object",
        "required": ["pending"],
        "properties": {
            "pending": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["conversation", "seq", "message", "history"],
                    "properties": {
                        "conversation": {"type": "string", "format": "uuid"},
                        "seq": {"type": "integer"},
                        "message": {"type": "string"},
                        "history": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "required": ["role", "text"],
                                "properties": {"role": {"type": "string"}, "text": {"type": "string"}},
                            },
                        },
                    },
                },
            }
        },
    }
    error = {"$ref": "#/components/schemas/Refusal"}
    security = [{"tokenAuth": []}, {"cookieAuth": []}]
    result.setdefault("paths", {})["/api/v1/entries/{entry_id}/pending/"] = {
        "get": {
            "operationId": "entries_pending_retrieve",
            "summary": "Long poll for the judge messages awaiting this entry's answer",
            "description": "Waits up to `wait` seconds (0 to the server's longest, ARENA_PULL_MAX_WAIT_S; a longer "
            "finite wait is capped) until a judge message awaits an answer. Ends when the client "
            "disconnects.",
            "parameters": [
                {"in": "path", "name": "entry_id", "required": True, "schema": {"type": "integer"}},
                {
                    "in": "query",
                    "name": "wait",
                    "required": False,
                    "schema": {"type": "number"},
                    "description": "Seconds to wait; a finite number of 0 or more.",
                },
            ],
            "tags": ["entries"],
            "security": security,
            "responses": {
                "200": {"content": {"application/json": {"schema": pending}}, "description": ""},
                "400": {"content": {"application/json": {"schema": error}}, "description": "A bad parameter."},
                "404": {"content": {"application/json": {"schema": error}}, "description": "No such entry of yours."},
            },
        }
    }
    return result


def common_answers(result, generator, request, public):
    """drf-spectacular postprocessing hook: every operation's 4xx answers have the one error body
    (``Refusal``); every operation may answer 429 (throttled, with Retry-After) and, unless it is public,
    401 (no or a bad token, with WWW-Authenticate); operations with input may answer 400, with a body 415."""
    refusal = {"application/json": {"schema": {"$ref": "#/components/schemas/Refusal"}}}
    result.setdefault("components", {}).setdefault("schemas", {}).setdefault(
        "Refusal",
        {
            "type": "object",
            "required": ["error", "code"],
            "properties": {
                "error": {"type": "string"},
                "code": {"type": "string"},
                "fields": {"type": "object", "additionalProperties": {}},
                "detail": {"type": "string", "description": "Deprecated: the same as error."},
            },
        },
    )
    throttled = {
        "description": "Too many requests (per token and per address): wait Retry-After seconds.",
        "content": refusal,
        "headers": {"Retry-After": {"schema": {"type": "integer"}, "description": "Seconds to wait."}},
    }
    unauthenticated = {
        "description": "No token, or a bad or revoked one.",
        "content": refusal,
        "headers": {"WWW-Authenticate": {"schema": {"type": "string"}, "description": "Token"}},
    }
    for item in result.get("paths", {}).values():
        for method, operation in item.items():
            if method not in ("get", "post", "put", "patch", "delete"):
                continue
            responses = operation.setdefault("responses", {})
            security = operation.get("security", [])
            secured = bool(security) and {} not in security
            if secured:
                responses.setdefault("401", unauthenticated)
            responses.setdefault("429", throttled)
            if "requestBody" in operation or operation.get("parameters"):
                responses.setdefault("400", {"description": "Invalid input."})
            if "requestBody" in operation:
                responses.setdefault("415", {"description": "A body of a media type the operation does not take."})
            for code, answer in responses.items():
                if code.startswith("4"):
                    answer["content"] = refusal
                    answer["description"] = answer.get("description") or "Refused."
    return result
