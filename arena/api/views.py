"""Thin DRF views, one per operation: parse, call a service or selector, shape the answer.

An entrant only ever reaches its own entries: any other entry id answers 404, as if it did not exist.
The long poll is an async Django view (:func:`pending_long_poll`), authenticated and throttled as the DRF
views are. Every 4xx has one body (arena.api.errors); every view is throttled (arena.api.throttles).
"""

import asyncio

from asgiref.sync import sync_to_async
from django.conf import settings
from django.http import Http404, JsonResponse
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.settings import api_settings
from rest_framework.views import APIView as DRFAPIView

from arena.api import schema
from arena.api.errors import error_json, refused
from arena.api.throttles import AddressFirst, AddressThrottle, TokenThrottle, throttle_wait
from arena.models import ApiKey, Entry, EntryHealth
from arena.selectors import entries
from arena.selectors.entrant_engines import entrant_engines, entrant_engines_text
from arena.services.engines import PROBE_MESSAGE, entry_probe
from arena.services.entries import entry_register, settings_masked
from arena.services.pull import KeyRevoked, pull_pending, pull_pending_wait, pull_reply, pull_typing
from arena.services.pull_watch import poll_executor
from arena.services.rehearsals import JUDGES, rehearsal_start
from core.db import connection_release
from core.errors import ArenaError, InvalidInput
from core.params import number_param


class APIView(AddressFirst, DRFAPIView):
    """Every view of this API counts the caller's address before authenticating it."""


def own_entry(request, entry_id: int) -> Entry:
    entry = Entry.objects.filter(pk=entry_id, owner=request.user).first()
    if entry is None:
        raise Http404("No such entry.")
    return entry


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
    engine = serializers.ChoiceField(choices=())  # the engines an entrant may choose (set per instance)
    settings = serializers.JSONField(
        required=False, default=dict, help_text="The chosen engine's settings, a JSON object (see `engine`)."
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["engine"].choices = [(offer.name, offer.label) for offer in entrant_engines()]
        self.fields["engine"].help_text = "The engine that answers for the entry:\n\n" + entrant_engines_text()


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
            raise exceptions.ValidationError({"non_field_errors": ["The body must be a JSON object."]})
        message = request.data.get("message") or PROBE_MESSAGE
        if not isinstance(message, str) or len(message) > 500:
            raise exceptions.ValidationError({"message": ["A text of at most 500 characters."]})
        return Response(entry_probe(entry_id=entry.pk, message=message))


class _Refused(Exception):
    def __init__(self, response):
        self.response = response


def _unauthenticated(exc) -> JsonResponse:
    """401 as DRF answers it: the one body, with the first authentication class's challenge."""
    challenge = api_settings.DEFAULT_AUTHENTICATION_CLASSES[0]().authenticate_header(None)
    detail = getattr(exc, "detail", str(exc))
    codes = exc.get_codes() if hasattr(exc, "get_codes") else "authentication_failed"
    return error_json(401, str(detail), codes, **{"WWW-Authenticate": challenge})


def _own_entry_authenticated(request, entry_id: int) -> tuple[Entry, int | None, list[dict]]:
    """The API's own throttles and authentication (DRF's classes: a token, or a session), the caller's
    entry, the id of the API key it came with (None: a DRF token or a session) and what the entry has
    pending now (the poll's first check, on the same connection); raises _Refused with the answer. Its
    connection is closed after (a long poll keeps none)."""
    try:
        api_request = Request(request, authenticators=[auth() for auth in api_settings.DEFAULT_AUTHENTICATION_CLASSES])
        wait = throttle_wait(AddressThrottle, api_request)
        if wait is None:
            try:
                if not api_request.user.is_authenticated:
                    raise exceptions.NotAuthenticated()
            except (exceptions.NotAuthenticated, exceptions.AuthenticationFailed) as exc:
                raise _Refused(_unauthenticated(exc)) from exc
            wait = throttle_wait(TokenThrottle, api_request)
        if wait is not None:
            raise _Refused(
                error_json(
                    429,
                    f"Request was throttled. Expected available in {int(wait)} seconds.",
                    "throttled",
                    **{"Retry-After": str(int(wait))},
                )
            )
        try:
            key_id = api_request.auth.pk if isinstance(api_request.auth, ApiKey) else None
            entry = own_entry(api_request, entry_id)
            return entry, key_id, pull_pending(entry=entry)
        except Http404 as exc:
            raise _Refused(error_json(404, str(exc), "not_found")) from None
    finally:
        connection_release()


async def pending_long_poll(request, entry_id):
    """Long poll: ``?wait=<seconds>`` (0 to ARENA_PULL_MAX_WAIT_S) until a judge message of this entry
    awaits an answer; ``{"pending": [...]}``. Async, so a waiting poll holds no thread or database
    connection and is cancelled when its client disconnects; answers as the DRF views do, and counts as
    one request of the throttles however long it waits."""
    if request.method != "GET":
        return error_json(405, f'Method "{request.method}" not allowed.', "method_not_allowed", Allow="GET")
    arrived = asyncio.get_running_loop().time()  # the wait counts from here, authentication included
    try:
        entry, key_id, first = await sync_to_async(
            _own_entry_authenticated, thread_sensitive=False, executor=poll_executor()
        )(request, entry_id)
    except _Refused as refusal:
        return refusal.response
    try:
        wait = number_param(
            request.GET, "wait", default=0.0, minimum=0.0, maximum=settings.ARENA_PULL_MAX_WAIT_S, cap=True
        )
        pending = await pull_pending_wait(entry=entry, wait_s=wait, key_id=key_id, since=arrived, first=first)
        return JsonResponse({"pending": pending}, json_dumps_params={"separators": (",", ":")})
    except InvalidInput as exc:
        return error_json(400, str(exc), exc.code)
    except KeyRevoked as exc:  # revoked while it waited: as any request with a revoked key is answered
        return _unauthenticated(exceptions.AuthenticationFailed(str(exc)))


class ReplyInput(serializers.Serializer):
    conversation = serializers.UUIDField()
    text = serializers.JSONField()  # any JSON: a non-text reply is refused by the reply rules, not here


class PullReply(APIView):
    """A reply to the pending judge message: held, and shown after the entry's typing delay (202)."""

    @extend_schema(
        request=ReplyInput,
        responses={202: schema.ReplyOut, 400: schema.INVALID, 404: schema.NOT_FOUND, 409: schema.REFUSED},
    )
    def post(self, request, entry_id):
        entry = own_entry(request, entry_id)
        data = ReplyInput(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            held = pull_reply(
                entry=entry, conversation_key=data.validated_data["conversation"], text=data.validated_data["text"]
            )
        except ArenaError as exc:
            return refused(exc)
        if held is None:
            raise Http404("No such conversation.")
        return Response(
            {"reply_to": held.reply_to, "text": held.text, "deliver_at": held.deliver_at},
            status=status.HTTP_202_ACCEPTED,
        )


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


class EntryHealthView(APIView):
    """The entry's health: breaker state, failures, last error, the last day's calls and latency percentiles."""

    @extend_schema(responses={200: schema.HealthOut, 404: schema.NOT_FOUND})
    def get(self, request, entry_id):
        return Response(entries.entry_health_report(entry=own_entry(request, entry_id)))


class EntryCallsView(APIView):
    """The entry's call log, newest first, paginated (``?page=``)."""

    @extend_schema(parameters=[schema.PAGE], responses={200: schema.CallPage, 404: schema.NOT_FOUND})
    def get(self, request, entry_id):
        from rest_framework.pagination import PageNumberPagination

        entry = own_entry(request, entry_id)
        pages = PageNumberPagination()
        pages.page_size = 50
        try:
            number_param(request.query_params, "page", minimum=1, maximum=10**9, integer=True)
        except InvalidInput as exc:
            raise exceptions.ValidationError({"page": [str(exc)]}) from None
        calls = pages.paginate_queryset(entries.entry_calls(entry=entry), request, view=self)
        return pages.get_paginated_response([entries.call_data(call) for call in calls])


class RehearseInput(serializers.Serializer):
    judge = serializers.ChoiceField(
        choices=JUDGES, default="bot", help_text="bot: the scripted judge asks; self: you judge, on the judge console."
    )


class EntryRehearse(APIView):
    """Start a rehearsal at once: a practice one-to-one interrogation of the entry, never published."""

    @extend_schema(
        request=RehearseInput,
        responses={201: schema.RehearsalOut, 400: schema.INVALID, 404: schema.NOT_FOUND, 409: schema.REFUSED},
    )
    def post(self, request, entry_id):
        entry = own_entry(request, entry_id)
        data = RehearseInput(data=request.data if isinstance(request.data, dict) else {"judge": request.data})
        data.is_valid(raise_exception=True)
        try:
            interrogation = rehearsal_start(entry=entry, user=request.user, judge=data.validated_data["judge"])
        except ArenaError as exc:
            return refused(exc)
        judge = data.validated_data["judge"]
        page = "judge_console" if judge == "self" else "entrant_rehearsal"
        return Response(
            {
                "interrogation": interrogation.public_id,
                "judge": judge,
                "status": interrogation.status,
                "deadline": interrogation.deadline,
                "page": reverse(page, args=[interrogation.public_id], request=request),
                "progress": reverse("api_rehearsal", args=[entry.pk, interrogation.public_id], request=request),
            },
            status=status.HTTP_201_CREATED,
        )


class EntryRehearsal(APIView):
    """Where one of the entry's rehearsals stands: a client rehearsing stops once it has ended."""

    @extend_schema(responses={200: schema.RehearsalProgress, 404: schema.NOT_FOUND})
    def get(self, request, entry_id, rehearsal_id):
        progress = entries.rehearsal_progress(entry=own_entry(request, entry_id), public_id=rehearsal_id)
        if progress is None:
            raise Http404("No such rehearsal of this entry.")
        return Response(progress)


class ApiRoot(APIView):
    """What this API offers, with links to its schema and its documentation."""

    permission_classes = []

    @extend_schema(responses={200: schema.RootOut})
    def get(self, request):
        def link(name, *args):
            return reverse(name, args=args, request=request)

        return Response(
            {
                "entries": link("api_entries"),
                "learner_consent": link("api_learner_consent"),
                "schema": link("api_schema_latest"),
                "docs": link("api_docs"),
                "api_keys": link("entrant_keys"),
                "endpoints": [
                    "GET, POST entries/",
                    "GET entries/{id}/",
                    "POST entries/{id}/probe/",
                    "GET entries/{id}/health/",
                    "GET entries/{id}/calls/",
                    "POST entries/{id}/rehearse/",
                    "GET entries/{id}/rehearsals/{interrogation}/",
                    "GET entries/{id}/pending/?wait=",
                    "POST entries/{id}/replies/",
                    "POST entries/{id}/typing/",
                    "GET, PUT, DELETE learner/consent/",
                ],
            }
        )
