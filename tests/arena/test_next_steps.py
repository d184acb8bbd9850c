"""The reveal rule and "what next", on plain interrogations: a format's rule holds the truth back from the
judge's state (the arena's own interrogations reveal at once), and a judge's next steps put what is on now first,
then a verdict due, then the soonest scheduled interrogation; the home page shows them."""

import datetime as dt

import pytest
from django.utils import timezone

from arena import services
from arena.next_steps import judge_next_step, judge_next_steps
from arena.selectors.interrogations import judge_state
from arena.services import verdicts

from .helpers import finished_chat, three_party

pytestmark = pytest.mark.django_db


def test_a_registered_rule_holds_the_truth_back_and_the_state_says_it_comes_later(cast, monkeypatch):
    interrogation, human, machine = finished_chat(cast)
    state = judge_state(interrogation=interrogation)
    assert state["reveal"][machine.side]["name"] == "Simple Bot" and state["correct"] is True
    assert state["reveal_later"] is False
    held = interrogation.pk
    monkeypatch.setattr(verdicts, "_REVEAL_RULES", [lambda interrogation_id: interrogation_id != held])
    state = judge_state(interrogation=interrogation)
    assert state["reveal"] is None and state["correct"] is None and state["reveal_later"] is True
    assert state["verdict"] == {"choice": human.side, "confidence": 77, "reason": "r"}
    assert "Simple Bot" not in str(state) and "connie" not in str(state)


def test_a_judges_next_steps_put_what_is_on_first(cast, client):
    now = timezone.now()
    later = three_party(cast, start=False)
    sooner = three_party(cast, start=False)
    for interrogation, hours in ((later, 2), (sooner, 1)):
        interrogation.scheduled_at = now + dt.timedelta(hours=hours)
        interrogation.save(update_fields=["scheduled_at"])
    running = three_party(cast)
    awaiting = three_party(cast)
    services.interrogation_end(interrogation_id=awaiting.pk, reason="judge")
    judged, _, _ = finished_chat(cast)
    three_party(cast, judge=cast.june)  # another judge's

    steps = judge_next_steps(user=cast.jude)
    assert [s.interrogation_id for s in steps] == [running.pk, awaiting.pk, sooner.pk, later.pk]
    assert steps[0].text.endswith(": on now") and steps[1].text.endswith(": give your verdict")
    assert steps[0].url == f"/judge/{running.public_id}/"
    assert judge_next_step(user=cast.jude, exclude=running.pk).interrogation_id == awaiting.pk
    # the end screen of the judged interrogation links to the most urgent of the others
    assert judge_state(interrogation=judged)["next"]["url"] == f"/judge/{running.public_id}/"
    assert judge_state(interrogation=running)["next"] is None  # not over: no end screen yet

    client.force_login(cast.jude)
    home = client.get("/").content.decode()
    assert 'id="next-steps"' in home and f'href="/judge/{running.public_id}/" class="button" id="next-step"' in home
    assert f'href="/judge/{later.public_id}/"' in home
    client.force_login(cast.oscar)
    assert 'id="next-steps"' not in client.get("/").content.decode()
