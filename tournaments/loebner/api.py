"""The entrants' API for contests (DRF, token or session): enter one of your entries with its people and
the compliance statements; list your contest entries with their receipt time."""

from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from arena.api.views import refused
from core.errors import ArenaError
from tournaments.loebner.models import Contest, ContestEntry
from tournaments.loebner.services import contest_enter

PERSON_SCHEMA = {
    "oneOf": [
        {"type": "string", "maxLength": 100},
        {
            "type": "object",
            "properties": {
                "name": {"type": "string", "maxLength": 100},
                "email": {"type": "string", "format": "email", "maxLength": 254},
                "affiliation": {"type": "string", "maxLength": 200},
            },
            "required": ["name"],
            "additionalProperties": False,
        },
    ]
}


class Person(serializers.Serializer):
    name = serializers.CharField(max_length=100)
    email = serializers.EmailField(max_length=254, required=False, allow_blank=True, default="")
    affiliation = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")


@extend_schema_field(PERSON_SCHEMA)
class PersonInput(serializers.Field):
    """A person: a name, or ``{"name", "email", "affiliation"}`` (the service checks each in full)."""

    def to_internal_value(self, data):
        if isinstance(data, str):
            data = {"name": data}
        if not isinstance(data, dict):
            raise serializers.ValidationError("A name, or an object with name, email and affiliation.")
        unknown = sorted(set(data) - set(Person().fields))
        if unknown:
            raise serializers.ValidationError(f"Unknown field(s): {', '.join(unknown)}.")
        person = Person(data=data)
        person.is_valid(raise_exception=True)
        return dict(person.validated_data)

    def to_representation(self, value):
        return value


class EnterInput(serializers.Serializer):
    entry = serializers.IntegerField(min_value=1, max_value=2**31 - 1)
    people = serializers.ListField(child=PersonInput(), min_length=1, max_length=20)
    rights_statement = serializers.BooleanField()
    under_18 = serializers.BooleanField(required=False, default=False)
    guardian_permission = serializers.BooleanField(required=False, default=False)


class ContestEntryOut(serializers.Serializer):
    id = serializers.IntegerField()
    contest = serializers.IntegerField()
    entry = serializers.IntegerField()
    display_name = serializers.CharField()
    received_at = serializers.DateTimeField()
    people = Person(many=True)
    rights_statement = serializers.BooleanField()
    under_18 = serializers.BooleanField()
    guardian_permission = serializers.BooleanField()
    compliance = serializers.CharField()
    qualified = serializers.BooleanField()
    finalist = serializers.BooleanField()


def entry_data(item: ContestEntry) -> dict:
    return {
        "id": item.pk,
        "contest": item.contest_id,
        "entry": item.entry_id,
        "display_name": item.entry.display_name,
        "received_at": item.received_at,
        "people": item.people,
        "rights_statement": item.rights_statement,
        "under_18": item.under_18,
        "guardian_permission": item.guardian_permission,
        "compliance": item.compliance,
        "qualified": item.qualified,
        "finalist": item.finalist,
    }


class ContestEntries(APIView):
    @extend_schema(responses={200: ContestEntryOut(many=True)})
    def get(self, request, contest_id):
        if not Contest.objects.filter(pk=contest_id).exclude(status=Contest.Status.DRAFT).exists():
            return Response({"error": "No such contest.", "code": "not_found"}, status=status.HTTP_404_NOT_FOUND)
        items = ContestEntry.objects.filter(contest_id=contest_id, entrant=request.user).select_related("entry")
        return Response([entry_data(i) for i in items.order_by("received_at", "pk")])

    @extend_schema(request=EnterInput, responses={201: ContestEntryOut})
    def post(self, request, contest_id):
        data = EnterInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        try:
            item = contest_enter(
                contest_id=contest_id,
                entry_id=values["entry"],
                entrant=request.user,
                people=values["people"],
                rights_statement=values["rights_statement"],
                under_18=values["under_18"],
                guardian_permission=values["guardian_permission"],
            )
        except ArenaError as exc:
            return refused(exc)
        return Response(entry_data(item), status=status.HTTP_201_CREATED)
