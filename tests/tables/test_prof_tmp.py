import time, pytest, cProfile, pstats
from django.db import connection
from django.test.utils import CaptureQueriesContext
from tables.stub import ChatStub
from tables.services import game_create, game_start, game_play, turn_play
from bench.tables import reply, NAMES

@pytest.mark.django_db(transaction=True)
def test_prof(loopback):
    with ChatStub({n: [reply] for n in NAMES}) as stub:
        game = game_create(config={**stub.config(names=NAMES), "max_turns": 30, "end_votes": 100})
        game_start(game_id=game.pk, run=False)
        for n in range(8):
            turn_play(game_id=game.pk, number=n, chain=False)
        with CaptureQueriesContext(connection) as ctx:
            t = time.perf_counter(); turn = turn_play(game_id=game.pk, number=8, chain=False); wall = time.perf_counter() - t
        print("queries", len(ctx.captured_queries), "wall ms", wall * 1000, "platform", turn.platform_ms)
        for q in ctx.captured_queries: print(q["time"], q["sql"][:110])
        pr = cProfile.Profile(); pr.enable()
        for n in range(9, 20):
            turn_play(game_id=game.pk, number=n, chain=False)
        pr.disable()
    pstats.Stats(pr).sort_stats("tottime").print_stats(15)
