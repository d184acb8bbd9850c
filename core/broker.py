"""The Redis broker transport of the platform's Celery processes (``CELERY_BROKER_TRANSPORT``): kombu's,
with one repair so that a worker survives its broker going away while it holds messages.

A worker holds messages it has not acknowledged: ETA tasks waiting for their time (a bot's reply, a
round's timer, a spectator release) and late-acknowledged tasks running. When Redis goes down, Celery
5.7 first collects the broken connection (which drops the transport's link to its connection
settings) and then closes it; closing the channel hands the held messages back to Redis, which needs
a client, which needs those settings: kombu's channel read them from the dropped link and raised
``AttributeError``, which Celery treats as unrecoverable, and the worker exited for good.

Here a channel keeps the settings it was opened with. With Redis still down, handing the messages
back fails as a connection error (which Celery expects at that point) and the worker goes on to
reconnect; what it held stays in Redis's unacknowledged set if Redis kept its data (redelivered after
the visibility timeout), and otherwise the periodic sweeps (arena.services.sweep) do the due work
from the database once the worker is back.
"""

from kombu.transport import redis as kombu_redis


class Channel(kombu_redis.Channel):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._opened_with = self.connection.client

    def _connparams(self, asynchronous=False):
        transport = self.connection
        if transport.client is None:  # collected after a connection loss: the settings it was opened with
            transport.client = self._opened_with
            try:
                return super()._connparams(asynchronous=asynchronous)
            finally:
                transport.client = None
        return super()._connparams(asynchronous=asynchronous)


class Transport(kombu_redis.Transport):
    Channel = Channel
