"""/play/ limits new participants per address and per browser (STUDIES_PLAY_NEW_PER_ADDRESS,
STUDIES_PLAY_NEW_PER_DEVICE), says so to the person refused, and never pairs one browser's participants
with each other, whatever its sessions."""

import pytest
from django.test import Client

from studies.models import Game, Participant

from .helpers import at, study_make

pytestmark = pytest.mark.django_db


def _consent(client):
    client.get("/play/")
    return client.post("/play/consent/", {"agree": "yes"})


def test_thirty_new_players_from_one_address_are_cut_at_the_limit_and_told_why(settings):
    settings.STUDIES_PLAY_NEW_PER_ADDRESS = 5
    study_make()
    answers = [_consent(Client(REMOTE_ADDR="203.0.113.9")) for _ in range(30)]  # a fresh browser each time
    assert [a.status_code for a in answers].count(302) == 5
    refused = answers[-1]
    assert refused.status_code == 429 and "try again later" in refused.content.decode()
    assert Participant.objects.count() == 5
    assert _consent(Client(REMOTE_ADDR="198.51.100.7")).status_code == 302  # another address is not held up


def test_one_browser_is_limited_across_sessions_and_never_meets_itself(settings):
    from studies import services

    settings.STUDIES_PLAY_NEW_PER_DEVICE = 2
    study = study_make(human_witness_share=1.0)
    browser = Client()
    people = []
    for _ in range(3):
        answer = _consent(browser)
        if answer.status_code == 302:
            browser.post("/play/answers/demographics/", {"age": "30", "attn": "blue"})
            people.append(Participant.objects.get(pk=browser.session["studies.participants"][str(study.pk)]))
        browser.cookies.pop("sessionid", None)  # a new session, the same browser (its device cookie kept)
    assert answer.status_code == 429 and len(people) == 2
    assert people[0].device == people[1].device != ""
    first = services.lobby_join(participant_id=people[0].pk, now=at(0), timer=False)
    second = services.lobby_join(participant_id=people[1].pk, now=at(1), timer=False)
    assert first.partner_id is None and second.partner_id is None
    services.lobby_expire(study_id=study.pk, now=at(10_000))
    assert not Game.objects.filter(human_witness__isnull=False).exists()
