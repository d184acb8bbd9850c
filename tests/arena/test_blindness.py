"""Before the reveal, nothing a judge receives says which witness is human: not in the page, not on the socket."""

import json

import pytest
from asgiref.sync import sync_to_async

from .helpers import sides, three_party
from .wsclient import connect

pytestmark = pytest.mark.django_db(transaction=True)

# every key a judge payload may carry before the verdict
JUDGE_KEYS = {
    "type",
    "kind",
    "title",
    "status",
    "deadline",
    "now",
    "time_limit_s",
    "end_reason",
    "sides",
    "held",
    "messages",
    "verdict",
    "reveal",
    "correct",
    "verdict_here",
    "reveal_later",
    "next",
    "url",
    "when",
    "earlier",
    "keystroke_mode",
    "composing",
    "keys",
    "side",
    "seq",
    "from",
    "text",
    "at",
    "code",
    "message",
    "left",
    "right",
    "sole",
}


def keys_of(value):
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from keys_of(item)
    elif isinstance(value, list):
        for item in value:
            yield from keys_of(item)


def secrets_of(cast, interrogation):
    human, machine = sides(interrogation)
    return [
        "connie",
        "Simple Bot",
        "simple",
        "human",
        "machine",
        "confederate",
        "entry",
        "engine",
        str(human.public_id),
        str(machine.public_id),
        f'"id": {human.pk}',
        f'"id": {machine.pk}',
    ]


async def test_every_judge_payload_before_the_reveal_is_blind(cast, task_worker):
    interrogation = await sync_to_async(three_party)(cast, start=False, time_limit_s=60)
    human, machine = await sync_to_async(sides)(interrogation)
    secrets = await sync_to_async(secrets_of)(cast, interrogation)
    judge, _, _ = await connect(f"/ws/judge/{interrogation.public_id}/", cast.jude)
    witness, _, _ = await connect(f"/ws/witness/{human.public_id}/", cast.connie)
    await judge.expect("state")
    await witness.expect("state")
    await judge.send({"type": "start"})
    await judge.expect("status", status="running")
    await witness.expect("status")
    for side in ("left", "right"):
        await judge.send({"type": "message", "side": side, "text": "Where did you grow up?"})
    await witness.expect("message")
    await witness.send({"type": "typing"})
    await witness.send({"type": "message", "text": "By the sea."})
    # both witnesses' answers arrive, in either order (the bot may well answer before the confederate)
    answered = set()
    while answered != {human.side, machine.side}:
        payload = await judge.receive(timeout=15)
        if payload.get("type") == "message" and payload.get("seq") == 2:
            answered.add(payload["side"])
    await judge.send({"type": "message", "side": "middle", "text": "x"})  # an error payload is blind too
    await judge.expect("error")
    await judge.send({"type": "state"})
    await judge.expect("state")
    await judge.close()
    first_connection = judge.received
    # reconnecting gives the same blind state
    judge, _, _ = await connect(f"/ws/judge/{interrogation.public_id}/", cast.jude)
    await judge.expect("state")
    await judge.send({"type": "end"})
    ended = await judge.expect("status", status="ended")
    before_reveal = first_connection + judge.received

    assert len(before_reveal) >= 8
    for payload in before_reveal:
        assert set(keys_of(payload)) <= JUDGE_KEYS, payload
        text = json.dumps(payload)
        for secret in secrets:
            assert secret not in text, (secret, payload)
        assert payload.get("reveal") is None and payload.get("correct") is None
    assert ended["status"] == "ended"

    # the verdict, and only the verdict, reveals the truth
    await judge.send({"type": "verdict", "choice": human.side, "confidence": 60, "reason": "seaside"})
    revealed = await judge.expect("state")
    assert revealed["reveal"][machine.side] == {"kind": "machine", "name": "Simple Bot"}
    assert revealed["reveal"][human.side]["kind"] == "human" and revealed["correct"] is True
    assert revealed["reveal_later"] is False  # a plain interrogation tells at once
    await judge.close()
    await witness.close()


def test_judge_pages_hide_the_witnesses(cast, client):
    interrogation = three_party(cast, start=False)
    human, machine = sides(interrogation)
    client.force_login(cast.jude)
    for url in ("/", f"/judge/{interrogation.public_id}/"):
        html = client.get(url).content.decode()
        for secret in ("connie", "Simple Bot", str(human.public_id), str(machine.public_id)):
            assert secret not in html, (url, secret)


def test_confederates_see_only_their_own_conversation(cast, client):
    interrogation = three_party(cast, start=False)
    other = three_party(cast, start=False, judge=cast.june, confederate=cast.carl)
    human, _ = sides(interrogation)
    other_human, other_machine = sides(other)
    client.force_login(cast.connie)
    assert client.get(f"/witness/{human.public_id}/").status_code == 200
    assert client.get(f"/witness/{other_human.public_id}/").status_code == 404
    assert client.get(f"/witness/{other_machine.public_id}/").status_code == 404
    assert client.get(f"/judge/{interrogation.public_id}/").status_code == 404
    home = client.get("/").content.decode()
    assert str(human.public_id) in home and str(other_human.public_id) not in home


def test_consoles_need_a_login(cast, client):
    interrogation = three_party(cast, start=False)
    response = client.get(f"/judge/{interrogation.public_id}/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert client.get("/monitor/").status_code == 302
    client.force_login(cast.jude)
    assert client.get("/monitor/").status_code == 302  # judges are not staff
    client.force_login(cast.olivia)
    monitor = client.get("/monitor/")
    assert monitor.status_code == 200 and "Turing Arena: organisers" in monitor.content.decode()
