"""Limits hold under parallel clients: 16 clients at once get exactly the API's budget per address, and a
user's websocket frames across 16 sockets exactly the per-user budget (counted in Redis in services mode)."""

import asyncio
import threading

from django.test import Client

from core import ratelimit

CLIENTS = 16


def _in_parallel(work, per_client: int) -> list:
    """``work()`` ``per_client`` times in each of CLIENTS threads, all started together; every result."""
    results, lock, start = [], threading.Lock(), threading.Barrier(CLIENTS)

    def client():
        start.wait()
        mine = [work() for _ in range(per_client)]
        with lock:
            results.extend(mine)

    threads = [threading.Thread(target=client) for _ in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def test_sixteen_parallel_clients_get_exactly_the_address_budget_of_the_api(settings):
    settings.ARENA_API_RATE_PER_ADDRESS = 100
    statuses = _in_parallel(lambda: Client(REMOTE_ADDR="10.20.30.40").get("/api/v1/").status_code, per_client=20)
    assert len(statuses) == 320
    assert statuses.count(200) == 100  # not one more: every request counted once, however they race
    assert statuses.count(429) == 220


def test_sixteen_parallel_sockets_of_one_user_get_exactly_its_frame_budget(settings):
    settings.ARENA_RATE_MESSAGE_PER_USER = 60

    def take():
        return asyncio.run(ratelimit.rate_user_atake(category=ratelimit.MESSAGE, user_id=4242))

    allowed = _in_parallel(take, per_client=8)
    assert allowed.count(True) == 60 and allowed.count(False) == 128 - 60
