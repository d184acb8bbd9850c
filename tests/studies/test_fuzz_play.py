"""The players' consoles (lobby, interrogator, witness) fuzzed as every arena console is
(tests/hardening/test_fuzz_frames.py): each frame gets its answer or exactly one error frame, nothing
invalid is stored, the socket stays open."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.hardening.test_fuzz_frames import FUZZ, LoopThread, check_frame, frames

from .helpers import game_for, player_client, study_make
from .test_play import connect

pytestmark = pytest.mark.django_db(transaction=True)


def _world():

    study = study_make(human_witness_share=1.0, max_message_chars=40, human_wait_s=3600)  # no timer fires later
    (client_a, a), (client_b, b), (client_c, _) = (player_client(study) for _ in range(3))
    game = game_for(a, b)
    clients = {a.pk: client_a, b.pk: client_b}
    return {
        "play-judge": (f"/ws/play/judge/{game.public_id}/", clients[game.interrogator_id]),
        "play-witness": (f"/ws/play/witness/{game.public_id}/", clients[game.human_witness_id]),
        "lobby": (f"/ws/play/{study.pk}/lobby/", client_c),
    }


ACTIONS = {
    "play-judge": "studies.consumers.PlayJudgeConsumer",
    "play-witness": "studies.consumers.PlayWitnessConsumer",
    "lobby": "studies.consumers.LobbyConsumer",
}


@pytest.fixture(params=sorted(ACTIONS))
def console(request, cast, end_stray_sessions, settings):
    for category in ("MESSAGE", "TYPING"):
        setattr(settings, f"ARENA_RATE_{category}_BURST", 10_000)
        setattr(settings, f"ARENA_RATE_{category}_PER_S", 1000.0)
        setattr(settings, f"ARENA_RATE_{category}_PER_USER", 1_000_000)
    path, client = _world()[request.param]
    loop = LoopThread()
    socket, accepted, code = loop.run(connect(path, client))
    assert accepted, f"{request.param}: closed with {code}"
    assert loop.run(socket.receive())["type"] == "state"
    yield loop, socket, request.param
    loop.run(socket.close())
    loop.stop()
    from channels.layers import channel_layers

    channel_layers.backends.clear()  # the layer's connections belong to the stopped loop: later tests get a fresh one


@pytest.mark.slow
@FUZZ
@given(data=st.data())
def test_every_players_frame_gets_its_answer_or_one_error(console, data):
    from django.utils.module_loading import import_string

    loop, socket, name = console
    check_frame(loop, socket, name, data.draw(frames(import_string(ACTIONS[name]).actions), label="frame"))
