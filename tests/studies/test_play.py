"""/play/ end to end without a browser: the pages, the lobby and game consoles over the real ASGI
stack (anonymous players through their session), the reveal, the history, the researcher's pages."""

import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from studies.models import Game, Participant
from tests.arena.wsclient import Socket
from tests.conftest import ORIGIN

from .helpers import FAST, game_for, player_client, study_make

pytestmark = pytest.mark.django_db(transaction=True)


async def connect(path, client):
    from config.asgi import application

    headers = (
        [*ORIGIN, (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())] if client else list(ORIGIN)
    )
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, code = await communicator.connect(timeout=5)
    return Socket(communicator), connected, code


def test_play_without_an_open_study_says_so(client):
    assert "No study is open" in client.get("/play/").content.decode()


def test_consent_then_questions_then_the_lobby(client, cast):
    study = study_make()
    page = client.get("/play/").content.decode()
    assert "I agree to take part" in page and "research study" in page
    assert client.post("/play/consent/", {}).status_code == 400  # not ticked: nothing stored
    assert not Participant.objects.exists()
    client.post("/play/consent/", {"agree": "yes"})
    page = client.get("/play/").content.decode()
    assert "Your age" in page and "Type the word blue" in page
    refused = client.post("/play/answers/demographics/", {"age": "", "attn": "blue"})
    assert refused.status_code == 400 and "Please answer" in refused.content.decode()
    client.post("/play/answers/demographics/", {"age": "31", "attn": "blue"})
    page = client.get("/play/").content.decode()
    assert 'id="lobby"' in page and f"/ws/play/{study.pk}/lobby/" in page
    participant = Participant.objects.get()
    assert participant.stage == "playing" and participant.consent.text_sha256 and participant.account is None
    assert not participant.player.has_usable_password()


def test_a_logged_in_person_plays_under_a_player_of_their_own(client, cast):
    study = study_make()
    client.force_login(cast.oscar)
    client.post("/play/consent/", {"agree": "yes"})
    participant = Participant.objects.get(study=study)
    assert participant.account == cast.oscar and participant.player != cast.oscar


@sync_to_async
def two_players(**overrides):
    study = study_make(**overrides)
    return study, player_client(study), player_client(study)


async def test_two_anonymous_players_are_matched_chat_in_turn_and_see_the_reveal(cast, task_worker):
    study, (client_a, a), (client_b, b) = await two_players(
        human_witness_share=1.0, max_message_chars=50, min_wait_s=3, human_wait_s=3
    )
    lobby_a, ok, _ = await connect(f"/ws/play/{study.pk}/lobby/", client_a)
    assert ok
    state = await lobby_a.expect("state")
    assert state["game"] is None and state["left"] == 4
    await lobby_a.send({"type": "join"})
    waiting = await lobby_a.expect("state", waiting=True)
    assert "in_lobby" not in waiting and "max_wait_s" not in waiting  # who else waits is not told
    lobby_b, ok, _ = await connect(f"/ws/play/{study.pk}/lobby/", client_b)
    await lobby_b.expect("state")
    await lobby_b.send({"type": "join"})
    assert (await lobby_b.expect("state", waiting=True))["game"] is None  # no game starts at once
    mine = (await lobby_b.expect("matched"))["game"]  # pushed when the drawn wait is over
    theirs = await lobby_a.expect("matched")  # "your game is ready", with its page
    assert mine and theirs["game"] and mine["url"] == theirs["game"]["url"]
    game = await sync_to_async(Game.objects.select_related("interrogation").get)()
    ask_client, answer_client = (client_a, client_b) if game.interrogator_id == a.pk else (client_b, client_a)
    judge, ok, _ = await connect(f"/ws/play/judge/{game.public_id}/", ask_client)
    witness, ok2, _ = await connect(f"/ws/play/witness/{game.public_id}/", answer_client)
    assert ok and ok2
    assert (await judge.expect("state"))["sides"] == ["sole"]
    await witness.expect("state")
    await witness.send({"type": "message", "text": "hello?"})
    assert (await witness.expect("error"))["code"] == "not_your_turn"  # no witness speaks first
    await judge.send({"type": "message", "side": "sole", "text": "hi, how are you?"})
    await witness.expect("message", text="hi, how are you?")
    await judge.send({"type": "message", "side": "sole", "text": "hello??"})
    assert (await judge.expect("error"))["code"] == "not_your_turn"
    await witness.send({"type": "message", "text": "x" * 51})
    assert (await witness.expect("error"))["code"] == "too_long"
    await witness.send({"type": "message", "text": "good thanks, you?"})
    await judge.expect("message", text="good thanks, you?")
    # the arena's own consoles stay shut to a player's session (it is not logged in as anyone)
    _, ok, code = await connect(f"/ws/judge/{game.interrogation.public_id}/", ask_client)
    assert not ok and code == 4403
    # nobody else's game: the witness cannot open the judge's console
    _, ok, code = await connect(f"/ws/play/judge/{game.public_id}/", answer_client)
    assert not ok and code == 4403
    await judge.send({"type": "end"})
    await judge.expect("status", status="ended")
    await judge.send({"type": "verdict", "choice": "human", "confidence": 80, "reason": "typos"})
    revealed = await judge.expect("state", correct=True)
    assert revealed["reveal"]["sole"] == {"kind": "human", "name": "a human player"}
    # blindness: nothing before the verdict named the witness
    before = [p for p in judge.received if p is not revealed]
    assert not any("player-" in json.dumps(p) or "human player" in json.dumps(p) for p in before)
    for socket in (lobby_a, lobby_b, judge, witness):
        await socket.close()


async def test_an_ai_game_from_the_lobby_gets_the_bot_reply_and_the_reveal_names_its_public_label(cast, task_worker):
    witnesses = [
        {"name": "Simple-PERSONA", "engine": "simple", "settings": FAST, "label": "a chatbot with a persona"},
    ]
    study, (client_a, a), _ = await two_players(
        human_witness_share=0.0, min_wait_s=0.5, human_wait_s=0.5, witnesses=witnesses
    )
    lobby, _, _ = await connect(f"/ws/play/{study.pk}/lobby/", client_a)
    await lobby.expect("state")
    await lobby.send({"type": "join"})
    url = (await lobby.expect("matched"))["game"]["url"]
    judge, ok, _ = await connect(url.replace("/play/game/", "/ws/play/judge/"), client_a)
    assert ok
    await judge.expect("state")
    await judge.send({"type": "message", "side": "sole", "text": "Hello, who are you?"})
    reply = await judge.expect("message", **{"from": "witness"})
    assert reply["text"]
    await judge.send({"type": "end"})
    await judge.expect("status", status="ended")
    await judge.send({"type": "verdict", "choice": "machine", "confidence": 90, "reason": "too quick"})
    revealed = await judge.expect("state", correct=True)
    # the researcher's label, never the internal name (of the condition or of its arena entry)
    assert revealed["reveal"]["sole"] == {"kind": "machine", "name": "a chatbot with a persona"}
    assert not any("Simple-PERSONA" in json.dumps(p) for p in judge.received)
    for socket in (lobby, judge):
        await socket.close()
    page = await sync_to_async(lambda: client_a.get("/play/").content.decode())()
    assert "right 1 time" in page and "it was a chatbot with a persona" in page and "Simple-PERSONA" not in page


def test_the_researcher_sees_results_and_downloads_them_anonymised(client, cast):
    from io import StringIO

    from django.core.management import call_command

    study = study_make(human_witness_share=0.0)
    player, participant = player_client(study)
    from arena import services as arena
    from studies import services

    game = game_for(participant)
    arena.interrogation_end(interrogation_id=game.interrogation_id, reason="judge")
    services.game_verdict(game=game, participant=participant, choice="machine", confidence=75, reason="<b>robotic</b>")
    assert client.get(f"/studies/{study.pk}/").status_code == 302  # log in first
    client.force_login(cast.oscar)
    assert client.get(f"/studies/{study.pk}/").status_code == 403
    client.force_login(cast.olivia)
    page = client.get(f"/studies/{study.pk}/").content.decode()
    assert "95 % bootstrap CI" in page and "&lt;b&gt;robotic&lt;/b&gt;" in page and "<b>robotic" not in page
    assert 'id="study-pass-rates" data-chart="plot"' in page  # the pass rates drawn with their CIs, and as a table
    csv_text = client.get(f"/studies/{study.pk}/export/verdicts.csv").content.decode()
    assert csv_text.splitlines()[0].startswith("game,interrogator,choice") and participant.anon_id in csv_text
    out = StringIO()
    call_command("study", "export", str(study.pk), "--format", "jsonl", "--what", "games", stdout=out)
    row = json.loads(out.getvalue().splitlines()[0])
    assert row["interrogator"] == participant.anon_id and row["ai_witness"] == game.condition.name
    assert "player-" not in out.getvalue() and participant.player.username not in csv_text
    assert client.get(f"/studies/{study.pk}/export/secrets.csv").status_code == 404
