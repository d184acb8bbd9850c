"""Thin DRF views, one per operation: parse, call a service or selector, shape the answer.

An entrant only ever reaches its own entries: any other entry id answers 404, as if it did not exist.
"""
import math

from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from core.errors import ArenaError, Closed, NotAllowed
from arena.models import Entry, EntryHealth
from arena.services.entries import entry_register, settings_masked
from arena.services.engines import PROBE_MESSAGE, entry_probe
from arena.services.pull import pull_pending_wait, pull_reply, pull_typing
from arena.api import schema


def own_entry(request, entry_id: int) -> Entry:
    entry = Entry.objects.filter(pk=entry_id, owner=request.user).first()
    if entry is None:
        raise Http404("No such entry.")
    return entry


def refused(exc: ArenaError) -> Response:
    code = status.HTTP_403_FORBIDDEN if isinstance(exc, NotAllowed) else (
        status.HTTP_409_CONFLICT if isinstance(exc, Closed) else status.HTTP_400_BAD_REQUEST)
    return Response({"error": str(exc), "code": exc.code}, status=code)


def entry_data(entry: Entry) -> dict:
    try:
        health = entry.health
    except EntryHealth.DoesNotExist:
        health = None
    return {
        "id": entry.pk,
        "display_name": entry.display_name,
        "engine": entry.engine,
        "settings": settings_masked(entry.engine, entry.settings),  # secrets never go back out
        "active": entry.active,
        "healthy": health.healthy if health else True,
        "last_error": health.last_error if health else "",
        "created_at": entry.created_at,
    }


class EntryInput(serializers.Serializer):
    display_name = serializers.CharField(max_length=100)
    engine = serializers.CharField(max_length=40)
    settings = serializers.JSONField(required=False, default=dict)


class EntryListCreate(APIView):
    @extend_schema(responses={200: schema.EntryOut(many=True)})
    def get(self, request):
        return Response([entry_data(e) for e in Entry.objects.filter(owner=request.user).select_related("health")])

    @extend_schema(request=EntryInput, responses={201: schema.EntryOut, 400: schema.INVALID, 403: schema.REFUSED})
    def post(self, request):
        data = EntryInput(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            entry = entry_register(owner=request.user, **data.validated_data)
        except ArenaError as exc:
            return refused(exc)
        return Response(entry_data(entry), status=status.HTTP_201_CREATED)


class EntryDetail(APIView):
    @extend_schema(responses={200: schema.EntryOut, 404: schema.NOT_FOUND})
    def get(self, request, entry_id):
        return Response(entry_data(own_entry(request, entry_id)))


class EntryProbe(APIView):
    @extend_schema(request=schema.ProbeIn, responses={200: schema.ProbeOut, 400: schema.INVALID, 404: schema.NOT_FOUND})
    def post(self, request, entry_id):
        entry = own_entry(request, entry_id)
        if not isinstance(request.data, dict):  # a JSON array, string or number
            return Response({"error": "the body must be a JSON object"}, status=400)
        message = request.data.get("message") or PROBE_MESSAGE
        if not isinstance(message, str) or len(message) > 500:
            return Response({"error": "message must be a text of at most 500 characters"}, status=400)
        return Response(entry_probe(entry_id=entry.pk, message=message))


class PullPending(APIView):
    """Long poll: ``?wait=<seconds>`` (bounded) until a judge message of this entry awaits an answer."""

    @extend_schema(parameters=[schema.WAIT], responses={200: schema.PendingOut, 400: schema.INVALID, 404: schema.NOT_FOUND})
    def get(self, request, entry_id):
        entry = own_entry(request, entry_id)
        try:
            wait = float(request.query_params.get("wait", 0))
        except ValueError:
            return Response({"error": "wait must be a number of seconds"}, status=400)
        if math.isnan(wait):  # passes every bound (NaN compares false): the poll would never end
            return Response({"error": "wait must be a number of seconds"}, status=400)
        return Response({"pending": pull_pending_wait(entry=entry, wait_s=wait)})


class ReplyInput(serializers.Serializer):
    conversation = serializers.UUIDField()
    text = serializers.JSONField()  # any JSON: a non-text reply is refused by the reply rules, not here


class PullReply(APIView):
    @extend_schema(request=ReplyInput, responses={201: schema.ReplyOut, 400: schema.INVALID, 404: schema.NOT_FOUND,
                                                  409: schema.REFUSED})
    def post(self, request, entry_id):
        entry = own_entry(request, entry_id)
        data = ReplyInput(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            message = pull_reply(entry=entry, conversation_key=data.validated_data["conversation"],
                                 text=data.validated_data["text"])
        except ArenaError as exc:
            return refused(exc)
        if message is None:
            raise Http404("No such conversation.")
        return Response({"seq": message.seq, "text": message.text}, status=status.HTTP_201_CREATED)


class TypingInput(serializers.Serializer):
    conversation = serializers.UUIDField()


class PullTyping(APIView):
    """Show the judge that the witness is typing (optional, before a reply)."""

    @extend_schema(request=TypingInput, responses={204: None, 400: schema.INVALID, 404: schema.NOT_FOUND})
    def post(self, request, entry_id):
        entry = own_entry(request, entry_id)
        data = TypingInput(data=request.data)
        data.is_valid(raise_exception=True)
        if not pull_typing(entry=entry, conversation_key=data.validated_data["conversation"]):
            raise Http404("No such conversation.")
        return Response(status=status.HTTP_204_NO_CONTENT)


class LearnerConsentView(APIView):
    """Donate (PUT) or withdraw (DELETE, which purges) what you type to the learner bots' corpus."""

    @extend_schema(responses=schema.ConsentOut)
    def get(self, request):
        from arena.models import LearnerConsent

        consent = LearnerConsent.objects.filter(user=request.user).first()
        return Response({"donating": consent is not None, "since": consent.agreed_at if consent else None})

    @extend_schema(request=None, responses=schema.ConsentOut)
    def put(self, request):
        from arena.learning import learner_consent_give

        consent = learner_consent_give(user=request.user)
        return Response({"donating": True, "since": consent.agreed_at})

    @extend_schema(responses={200: schema.ConsentWithdrawn})
    def delete(self, request):
        from arena.learning import learner_consent_revoke

        return Response({"donating": False, "purged": learner_consent_revoke(user=request.user)})
