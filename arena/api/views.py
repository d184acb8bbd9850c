"""Thin DRF views, one per operation: parse, call a service or selector, shape the answer.

An entrant only ever reaches its own entries: any other entry id answers 404, as if it did not exist.
The long poll is an async Django view (:func:`pending_long_poll`), authenticated as the DRF views are.
"""
from asgiref.sync import sync_to_async
from django.conf import settings
from django.http import Http404, JsonResponse
from django.views.decorators.http import require_GET
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from arena.api import schema
from arena.models import Entry, EntryHealth
from arena.services.engines import PROBE_MESSAGE, entry_probe
from arena.services.entries import entry_register, settings_masked
from arena.services.pull import pull_pending_wait, pull_reply, pull_typing
from core.db import connection_release
from core.errors import ArenaError, Closed, Conflict, InvalidInput, NotAllowed
from core.params import number_param


def own_entry(request, entry_id: int) -> Entry:
    entry = Entry.objects.filter(pk=entry_id, owner=request.user).first()
    if entry is None:
        raise Http404("No such entry.")
    return entry


def refused(exc: ArenaError) -> Response:
    code = status.HTTP_403_FORBIDDEN if isinstance(exc, NotAllowed) else (
        status.HTTP_409_CONFLICT if isinstance(exc, (Closed, Conflict)) else status.HTTP_400_BAD_REQUEST)
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


def _own_entry_authenticated(request, entry_id: int) -> Entry:
    """The API's own authentication (DRF's classes: a token, or a session) and the caller's entry; raises
    DRF's NotAuthenticated/AuthenticationFailed or Http404. Its connection is closed after (a long poll
    keeps none)."""
    try:
        api_request = Request(request, authenticators=[auth() for auth in api_settings.DEFAULT_AUTHENTICATION_CLASSES])
        if not api_request.user.is_authenticated:
            raise exceptions.NotAuthenticated()
        return own_entry(api_request, entry_id)
    finally:
        connection_release()


def _json(data: dict, status_code: int = 200, **headers) -> JsonResponse:
    return JsonResponse(data, status=status_code, headers=headers, json_dumps_params={"separators": (",", ":")})


@require_GET
async def pending_long_poll(request, entry_id):
    """Long poll: ``?wait=<seconds>`` (0 to ARENA_PULL_MAX_WAIT_S) until a judge message of this entry
    awaits an answer; ``{"pending": [...]}``. Async, so a waiting poll holds no thread or database
    connection and is cancelled when its client disconnects; answers as the DRF views do."""
    try:
        entry = await sync_to_async(_own_entry_authenticated, thread_sensitive=False)(request, entry_id)
    except (exceptions.NotAuthenticated, exceptions.AuthenticationFailed) as exc:
        # as DRF answers: 401 with the first authentication class's challenge, 403 when it has none
        challenge = api_settings.DEFAULT_AUTHENTICATION_CLASSES[0]().authenticate_header(request)
        if challenge:
            return _json({"detail": str(exc.detail)}, 401, **{"WWW-Authenticate": challenge})
        return _json({"detail": str(exc.detail)}, 403)
    except Http404 as exc:
        return _json({"detail": str(exc)}, 404)
    try:
        wait = number_param(request.GET, "wait", default=0.0, minimum=0.0, maximum=settings.ARENA_PULL_MAX_WAIT_S,
                            cap=True)
        return _json({"pending": await pull_pending_wait(entry=entry, wait_s=wait)})
    except InvalidInput as exc:
        return _json({"error": str(exc), "code": exc.code}, 400)


class ReplyInput(serializers.Serializer):
    conversation = serializers.UUIDField()
    text = serializers.JSONField()  # any JSON: a non-text reply is refused by the reply rules, not here


class PullReply(APIView):
    """A reply to the pending judge message: held, and shown after the entry's typing delay (202)."""

    @extend_schema(request=ReplyInput, responses={202: schema.ReplyOut, 400: schema.INVALID, 404: schema.NOT_FOUND,
                                                  409: schema.REFUSED})
    def post(self, request, entry_id):
        entry = own_entry(request, entry_id)
        data = ReplyInput(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            held = pull_reply(entry=entry, conversation_key=data.validated_data["conversation"],
                              text=data.validated_data["text"])
        except ArenaError as exc:
            return refused(exc)
        if held is None:
            raise Http404("No such conversation.")
        return Response({"reply_to": held.reply_to, "text": held.text, "deliver_at": held.deliver_at},
                        status=status.HTTP_202_ACCEPTED)


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
