"""Studies built for tests: a design with fast machine witnesses, and participants ready to play."""

import datetime as dt

from django.db.models import Q
from django.test import Client
from django.utils import timezone

from studies import services
from studies.models import Study

FAST = {"think_s": 0, "per_char_s": 0, "jitter": 0}


def config(**overrides) -> dict:
    return {
        "format": "two-party",
        "minutes": 5,
        "seed": 3,
        "human_witness_share": 0.5,
        "games_per_participant": 4,
        "human_wait_s": 30,
        "title": "Human or AI?",
        "witnesses": [
            {"name": "Simple-PERSONA", "engine": "simple", "settings": FAST, "persona": "PERSONA"},
            {"name": "ELIZA", "engine": "eliza", "settings": FAST},
        ],
        "demographics": [{"key": "age", "label": "Your age", "type": "number"}],
        "attention_checks": [{"key": "attn", "label": "Type the word blue", "answer": "blue"}],
        **overrides,
    }


def study_make(**overrides) -> Study:
    return services.study_load(config=config(**overrides), status=Study.Status.OPEN)


def ready(study, n=1, *, attention="blue"):
    people = []
    for _ in range(n):
        person = services.participant_create(study=study)
        services.consent_give(participant=person, agreed=True)
        services.survey_submit(participant=person, phase="demographics", answers={"age": "30", "attn": attention})
        people.append(person)
    return people


def at(seconds: float) -> dt.datetime:
    return BASE + dt.timedelta(seconds=seconds)


BASE = timezone.now()


def player_client(study) -> tuple[Client, object]:
    """A browser through consent and the questions: (its client, its participant)."""
    from studies.models import Participant

    client = Client()
    client.get("/play/")
    client.post("/play/consent/", {"agree": "yes"})
    client.post("/play/answers/demographics/", {"age": "30", "attn": "blue"})
    pid = client.session["studies.participants"][str(study.pk)]
    return client, Participant.objects.get(pk=pid)


def game_for(*people):
    """The game the lobby gives `people` (joined in that order, one second apart) once every drawn wait
    has run out: the first one's game."""
    from studies.models import Game

    for i, person in enumerate(people):
        services.lobby_join(participant_id=person.pk, now=at(i), timer=False)
    services.lobby_expire(study_id=people[0].study_id, now=at(100_000))
    return Game.objects.filter(Q(interrogator=people[0]) | Q(human_witness=people[0])).latest("pk")
