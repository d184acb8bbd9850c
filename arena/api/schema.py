"""What the entrants' API answers, for its OpenAPI schema (/api/v1/schema/) only: the views shape their
answers themselves (arena/api/views.py); these serializers describe those shapes."""
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import serializers


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
    error = serializers.CharField()
    code = serializers.CharField(required=False)


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
    deliver_at = serializers.DateTimeField(help_text="When the judge sees it: the entry's typing delay after the judge's message.")


class ConsentOut(serializers.Serializer):
    donating = serializers.BooleanField()
    since = serializers.DateTimeField(allow_null=True)


class ConsentWithdrawn(serializers.Serializer):
    donating = serializers.BooleanField()
    purged = serializers.IntegerField()


NOT_FOUND = OpenApiResponse(description="No such entry of yours (or conversation of the entry).")
INVALID = OpenApiResponse(description="The request's fields are invalid.")
REFUSED = OpenApiResponse(Refusal, description="Refused by the platform's rules.")
WAIT = OpenApiParameter("wait", float, required=False,
                        description="Seconds to wait for a pending message (0 to the server's maximum).")


def long_poll_path(result, generator, request, public):
    """drf-spectacular postprocessing hook: the pull long poll is an async Django view (it must end when
    its client leaves), which the generator does not see; describe it as the DRF views are described."""
    pending = {
        "type": "object", "required": ["pending"],
        "properties": {"pending": {"type": "array", "items": {
            "type": "object", "required": ["conversation", "seq", "message", "history"],
            "properties": {
                "conversation": {"type": "string", "format": "uuid"},
                "seq": {"type": "integer"},
                "message": {"type": "string"},
                "history": {"type": "array", "items": {
                    "type": "object", "required": ["role", "text"],
                    "properties": {"role": {"type": "string"}, "text": {"type": "string"}}}},
            }}}},
    }
    error = {"type": "object", "required": ["error"], "properties": {"error": {"type": "string"}, "code": {"type": "string"}}}
    detail = {"type": "object", "properties": {"detail": {"type": "string"}}}
    security = [{"tokenAuth": []}, {"cookieAuth": []}]
    result.setdefault("paths", {})["/api/v1/entries/{entry_id}/pending/"] = {"get": {
        "operationId": "entries_pending_retrieve",
        "summary": "Long poll for the judge messages awaiting this entry's answer",
        "description": "Waits up to `wait` seconds (0 to the server's longest, ARENA_PULL_MAX_WAIT_S; a longer "
                       "finite wait is capped) until a judge message awaits an answer. Ends when the client "
                       "disconnects.",
        "parameters": [
            {"in": "path", "name": "entry_id", "required": True, "schema": {"type": "integer"}},
            {"in": "query", "name": "wait", "required": False, "schema": {"type": "number"},
             "description": "Seconds to wait; a finite number of 0 or more."},
        ],
        "tags": ["entries"], "security": security,
        "responses": {
            "200": {"content": {"application/json": {"schema": pending}}, "description": ""},
            "400": {"content": {"application/json": {"schema": error}}, "description": "A bad parameter."},
            "401": {"content": {"application/json": {"schema": detail}}, "description": "Not authenticated."},
            "403": {"content": {"application/json": {"schema": detail}}, "description": "Not authenticated."},
            "404": {"content": {"application/json": {"schema": detail}}, "description": "No such entry of yours."},
        },
    }}
    return result
