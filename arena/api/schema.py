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
    seq = serializers.IntegerField()
    text = serializers.CharField()


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
