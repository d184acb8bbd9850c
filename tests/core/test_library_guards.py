"""Guards on the other libraries' internals the platform relies on: each test checks one thing a platform
module takes from a library beyond its public API (a private attribute, an overridden method, a wire
format written by hand) against the installed library, and fails naming what changed, the module that
depends on it and the decision record that says why it is kept. An upgrade that trips one: read the
record, adapt the module (or drop the reliance), then the guard.

The channels_redis format checks need the Redis server of REDIS_URL (marked ``redis``)."""

import ast
import asyncio
import inspect
import os
import textwrap
import threading
import time

import pytest

from tests.conftest import redis_available

DECISIONS = "docs/development/decisions"


def relied(ok, library: str, what: str, module: str, record: str) -> None:
    """Fail, unless ``ok``: ``library`` changed ``what``, on which ``module`` relies."""
    if not ok:
        pytest.fail(
            f"{library} changed: {what}. {module} relies on it; see {DECISIONS}/{record} before adapting it.",
            pytrace=False,
        )


def parameters(function) -> list[str]:
    return list(inspect.signature(function).parameters)


def body_ast(source: str) -> str:
    """The AST of a function's body without its docstring: formatting and comments do not count."""
    function = ast.parse(textwrap.dedent(source)).body[0]
    body = function.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    return ast.dump(ast.Module(body=body, type_ignores=[]))


# --- channels_redis: core/channel_layer.py --------------------------------------------------------

LAYER, LAYER_RECORD = "core/channel_layer.py (RedisChannelLayer)", "0008-channels-redis-internals.md"
REDIS_URL = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"


def stock_layer(**config):
    from channels_redis.core import RedisChannelLayer

    return RedisChannelLayer(hosts=[{"address": REDIS_URL, "socket_timeout": None}], **config)


def test_channels_redis_layer_keeps_the_attributes_and_methods_the_platform_layer_uses():
    from channels_redis.core import RedisChannelLayer
    from channels_redis.serializers import MsgPackSerializer

    layer = stock_layer(prefix="guard")
    for name in (
        "hosts", "prefix", "expiry", "group_expiry", "capacity", "channel_capacity", "brpop_timeout",
        "client_prefix", "receive_count", "receive_event_loop", "receive_buffer", "_receive_index_generator",
        "_serializer",
    ):  # fmt: skip
        relied(
            hasattr(layer, name), "channels_redis", f"RedisChannelLayer has no attribute {name!r}", LAYER, LAYER_RECORD
        )
    relied(
        isinstance(layer.receive_buffer, dict) and isinstance(layer.receive_buffer["x"], asyncio.Queue),
        "channels_redis",
        "receive_buffer is no longer a defaultdict of asyncio.Queue per channel",
        LAYER,
        LAYER_RECORD,
    )
    relied(layer.receive_count == 0, "channels_redis", "receive_count does not start at 0", LAYER, LAYER_RECORD)
    methods = {
        "_map_channel_keys_to_connection": ["self", "channel_names", "message"],
        "_group_key": ["self", "group"],
        "consistent_hash": ["self", "value"],
        "non_local_name": ["self", "name"],
        "connection": ["self", "index"],
        "deserialize": ["self", "message"],
        "require_valid_group_name": ["self", "name"],
        "require_valid_channel_name": ["self", "name", "receive"],
        "receive": ["self", "channel"],
        "receive_single": ["self", "channel"],
        "group_send": ["self", "group", "message"],
    }
    for name, expected in methods.items():
        got = parameters(getattr(RedisChannelLayer, name, None) or (lambda: None))
        relied(
            got == expected,
            "channels_redis",
            f"RedisChannelLayer.{name} takes {got}, not {expected}",
            LAYER,
            LAYER_RECORD,
        )
    relied(
        layer._group_key("g") == b"guard:group:g",
        "channels_redis",
        f"a group's key is {layer._group_key('g')!r}, not b'guard:group:g' (GROUP_SEND_LUA and MEMBERS_LUA read it)",
        LAYER,
        LAYER_RECORD,
    )
    serializer = layer._serializer
    relied(
        type(serializer) is MsgPackSerializer
        and all(hasattr(serializer, a) for a in ("random_prefix_length", "crypter", "as_bytes")),
        "channels_redis",
        "the default serializer is no longer a MsgPackSerializer with random_prefix_length, crypter, as_bytes",
        LAYER,
        LAYER_RECORD,
    )
    message = {"type": "m", "text": "é"}
    packed = serializer.serialize(message)
    import msgpack

    relied(
        packed[serializer.random_prefix_length :] == msgpack.packb(message, use_bin_type=True),
        "channels_redis",
        "a stored message is no longer its random prefix then msgpack (use_bin_type) of the message; "
        "GROUP_SEND_LUA writes exactly that",
        LAYER,
        LAYER_RECORD,
    )


redis_only = pytest.mark.skipif(not redis_available(REDIS_URL), reason="no Redis server reachable (set REDIS_URL)")


def layers(**config):
    from core.channel_layer import RedisChannelLayer

    prefix = f"arena-guard-{os.getpid()}-{time.monotonic_ns()}"
    host = {"address": REDIS_URL, "socket_timeout": None}
    return RedisChannelLayer(hosts=[host], prefix=prefix, **config), stock_layer(prefix=prefix)


async def stored(stock, channel: str) -> list[bytes]:
    """The raw members of ``channel``'s key, removed; checks the key is a sorted set with the layer's expiry."""
    key = stock.prefix + (stock.non_local_name(channel) if "!" in channel else channel)
    connection = stock.connection(stock.consistent_hash(channel))
    kind = (await connection.type(key)).decode()
    ttl = await connection.ttl(key)
    relied(kind == "zset", "channels_redis", f"a channel's key {key!r} holds a {kind}, not a zset", LAYER, LAYER_RECORD)
    relied(0 < ttl <= stock.expiry, "channels_redis", f"a channel's key expires in {ttl} s", LAYER, LAYER_RECORD)
    members = await connection.zrange(key, 0, -1)
    await connection.delete(key)
    return members


@pytest.mark.redis
@redis_only
@pytest.mark.parametrize("path", ["one_trip", "two_trips"])
async def test_group_sends_write_the_keys_and_bytes_channels_redis_writes(path):
    # a per-channel capacity (that matches nothing) takes the two-trip path: the stock serializer, SEND_LUA
    layer, stock = layers(**({} if path == "one_trip" else {"channel_capacity": {"nothing.*": 5}}))
    assert layer.one_trip is (path == "one_trip")
    try:
        local, plain = await stock.new_channel(), "guard.plain"
        await stock.group_add("g", local)
        await stock.group_add("g", plain)
        message = {"type": "arena.event", "payload": {"text": "é" * 40, "n": 1, "list": [1, 2.5, None]}}
        await layer.group_send("g", message)
        ours = [await stored(stock, local), await stored(stock, plain)]
        await stock.group_send("g", message)
        theirs = [await stored(stock, local), await stored(stock, plain)]
        cut = stock._serializer.random_prefix_length
        relied(
            [[m[cut:] for m in ms] for ms in ours] == [[m[cut:] for m in ms] for ms in theirs],
            "channels_redis",
            f"a group send's stored message differs from the platform's ({path}): {theirs} against {ours}",
            LAYER,
            LAYER_RECORD,
        )
    finally:
        await layer.flush()
        await stock.close_pools()
        await layer.close_pools()


@pytest.mark.redis
@redis_only
async def test_messages_cross_between_the_platform_layer_and_a_stock_channels_redis():
    layer, stock = layers()
    try:
        mine, theirs = await layer.new_channel(), await stock.new_channel()
        await stock.group_add("g", mine)
        await layer.group_add("g", theirs)
        await layer.group_send("g", {"type": "m", "text": "from the platform"})
        got = await asyncio.wait_for(stock.receive(theirs), 2)
        relied(
            got == {"type": "m", "text": "from the platform"},
            "channels_redis",
            f"its receive read {got}",
            LAYER,
            LAYER_RECORD,
        )
        got = await asyncio.wait_for(layer.receive(mine), 2)
        assert got == {"type": "m", "text": "from the platform"}
        await stock.group_send("g", {"type": "m", "text": "from channels_redis"})
        got = await asyncio.wait_for(layer.receive(mine), 2)
        relied(
            got == {"type": "m", "text": "from channels_redis"},
            "channels_redis",
            f"the platform layer read {got} from a stock group send",
            LAYER,
            LAYER_RECORD,
        )
        await stock.send("guard.direct", {"type": "m", "n": 7})  # a plain channel: receive_single
        got = await asyncio.wait_for(layer.receive("guard.direct"), 2)
        relied(got == {"type": "m", "n": 7}, "channels_redis", f"a stock send read as {got}", LAYER, LAYER_RECORD)
    finally:
        await layer.flush()
        await stock.close_pools()
        await layer.close_pools()


# --- Channels: core/consumers.py ------------------------------------------------------------------

CONSUMER, CONSUMER_RECORD = "core/consumers.py (BaseConsumer.dispatch)", "0009-channels-dispatch-override.md"

# channels' AsyncConsumer.dispatch, which BaseConsumer.dispatch copies less the close_old_connections hop
STOCK_DISPATCH = """
async def dispatch(self, message):
    handler = getattr(self, get_handler_name(message), None)
    if handler:
        await aclose_old_connections()
        await handler(message)
    else:
        raise ValueError("No handler for message type %s" % message["type"])
"""


def test_channels_dispatch_is_the_one_base_consumer_overrides():
    from channels.consumer import AsyncConsumer, get_handler_name

    relied(
        body_ast(inspect.getsource(AsyncConsumer.dispatch)) == body_ast(STOCK_DISPATCH),
        "channels",
        "AsyncConsumer.dispatch is no longer the handler lookup plus aclose_old_connections that "
        "BaseConsumer.dispatch copies (compare the two; keep what is new)",
        CONSUMER,
        CONSUMER_RECORD,
    )
    relied(
        "self.dispatch" in inspect.getsource(AsyncConsumer.__call__),
        "channels",
        "AsyncConsumer.__call__ no longer hands every message to self.dispatch",
        CONSUMER,
        CONSUMER_RECORD,
    )
    relied(
        get_handler_name({"type": "arena.message"}) == "arena_message",
        "channels",
        "get_handler_name no longer maps 'arena.message' to 'arena_message'",
        CONSUMER,
        CONSUMER_RECORD,
    )


@pytest.mark.django_db  # a pool thread may hold a connection from an earlier test: closing it is database access
def test_database_sync_to_async_takes_an_executor_of_its_own():
    from core.consumers import db_message

    name = asyncio.run(db_message(lambda: threading.current_thread().name)())
    relied(
        name.startswith("messages"),
        "channels/asgiref",
        f"database_sync_to_async(executor=...) ran on thread {name!r}, not the messages pool",
        "core/consumers.py (db_message)",
        CONSUMER_RECORD,
    )


@pytest.mark.django_db(transaction=True)  # database threads: as the platform's consumer tests
async def test_a_console_round_trip_skips_the_close_old_connections_hop(settings, monkeypatch):
    import channels.consumer
    from channels.layers import get_channel_layer
    from channels.testing import WebsocketCommunicator

    from core.consumers import BaseConsumer

    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    hops = []

    async def counted():
        hops.append(1)

    monkeypatch.setattr(channels.consumer, "aclose_old_connections", counted)

    class Console(BaseConsumer):
        def authorise(self):
            pass

        def groups_to_join(self):
            return ["guard.console"]

        def state(self):
            return {"type": "state", "ok": True}

    communicator = WebsocketCommunicator(Console.as_asgi(), "/ws/guard/")
    connected, _ = await communicator.connect()
    assert connected
    assert await communicator.receive_json_from() == {"type": "state", "ok": True}
    await get_channel_layer().group_send("guard.console", {"type": "arena.event", "payload": {"type": "ping"}})
    assert await communicator.receive_json_from() == {"type": "ping"}
    await communicator.send_json_to({"type": "state"})
    assert await communicator.receive_json_from() == {"type": "state", "ok": True}
    await communicator.disconnect()
    relied(
        hops == [],
        "channels",
        f"a console's frames and pushes went through aclose_old_connections {len(hops)} times",
        CONSUMER,
        CONSUMER_RECORD,
    )

    class Stock(channels.consumer.AsyncConsumer):
        async def guard_ping(self, message):
            self.got = message

    stock = Stock()
    await stock.dispatch({"type": "guard.ping"})
    relied(
        hops == [1] and stock.got == {"type": "guard.ping"},
        "channels",
        "AsyncConsumer.dispatch no longer closes old connections before each handler: the override may go",
        CONSUMER,
        CONSUMER_RECORD,
    )


# --- Django: core/db.py, arena/services/appends.py, tables/, tournaments/wager/admin.py, core/ratelimit.py ---

DB, DB_RECORD = "core/db.py (insert_statement, inserted)", "0010-django-insert-query-and-model-state.md"


@pytest.mark.django_db
def test_insert_query_and_its_compiler_as_core_db_uses_them():
    from django.db import connection
    from django.db.models import Value, sql
    from django.db.models.functions import Lower

    from arena.models import Entry
    from core.db import insert_statement, statements_run

    relied(
        parameters(sql.InsertQuery.insert_values)[:3] == ["self", "fields", "objs"],
        "Django",
        f"InsertQuery.insert_values takes {parameters(sql.InsertQuery.insert_values)}",
        DB,
        DB_RECORD,
    )
    query = sql.InsertQuery(Entry)
    fields = [f for f in Entry._meta.concrete_fields if not f.generated and f is not Entry._meta.auto_field]
    query.insert_values(fields, [Entry(display_name="x", engine="echo")])
    compiler = query.get_compiler(connection=connection)
    relied(
        hasattr(compiler, "returning_fields"),
        "Django",
        "SQLInsertCompiler has no returning_fields attribute",
        DB,
        DB_RECORD,
    )
    compiler.returning_fields = [Entry._meta.pk]
    compiled = compiler.as_sql()
    relied(
        isinstance(compiled, list) and len(compiled) == 1 and len(compiled[0]) == 2,
        "Django",
        f"SQLInsertCompiler.as_sql() gives {type(compiled).__name__} {compiled!r}, not [(sql, params)]",
        DB,
        DB_RECORD,
    )
    relied(
        "RETURNING" in compiled[0][0].upper(),
        "Django",
        "setting the compiler's returning_fields no longer adds a RETURNING clause",
        DB,
        DB_RECORD,
    )
    # an expression among the values takes the compiler: the statement runs and returns the keys in order
    rows = [Entry(display_name=Lower(Value(f"GUARD-{i}")), engine="echo") for i in range(2)]
    statement = insert_statement(rows, returning_pk=True)
    ((count, keys),) = statements_run([statement])
    names = list(
        Entry.objects.filter(pk__in=[k for (k,) in keys]).order_by("pk").values_list("display_name", flat=True)
    )
    relied(
        count == 2 and names == ["guard-0", "guard-1"],
        "Django",
        f"the compiled INSERT stored {names}",
        DB,
        DB_RECORD,
    )


@pytest.mark.django_db
def test_model_state_and_related_field_preparation_as_core_db_uses_them():
    from django.db import connection

    from arena.models import EngineCall, Entry
    from core.db import insert_statement, inserted, statements_run

    relied(
        parameters(Entry._prepare_related_fields_for_save)[:3] == ["self", "operation_name", "fields"],
        "Django",
        f"Model._prepare_related_fields_for_save takes {parameters(Entry._prepare_related_fields_for_save)}",
        DB,
        DB_RECORD,
    )
    fresh = Entry(display_name="new", engine="echo")
    relied(
        (fresh._state.adding, fresh._state.db) == (True, None),
        "Django",
        f"a new instance's _state is adding={fresh._state.adding}, db={fresh._state.db!r}",
        DB,
        DB_RECORD,
    )
    saved = Entry.objects.create(display_name="saved", engine="echo")
    ours = Entry(display_name="ours", engine="echo")
    ((_, keys),) = statements_run([insert_statement([ours], returning_pk=True)])
    inserted([ours], keys)
    relied(
        (ours._state.adding, ours._state.db) == (saved._state.adding, saved._state.db) == (False, connection.alias),
        "Django",
        f"a saved instance's _state is adding={saved._state.adding}, db={saved._state.db!r}; inserted() sets "
        "adding=False and the connection's alias",
        DB,
        DB_RECORD,
    )
    ours.display_name = "ours, renamed"
    ours.save()  # an instance inserted() marked is updated in place, not inserted again
    relied(
        Entry.objects.filter(display_name__startswith="ours").count() == 1,
        "Django",
        "saving an instance marked saved by _state inserted a second row",
        DB,
        DB_RECORD,
    )
    # a related object saved since it was assigned lends its key, as bulk_create does
    entry = Entry(display_name="late", engine="echo")
    call = EngineCall(entry=entry, subject="s", outcome=EngineCall.Outcome.OK, latency_ms=1)
    with pytest.raises(ValueError):
        insert_statement([call])  # unsaved: refused
    entry.save()
    relied(
        insert_statement([call]).params[list(f.attname for f in EngineCall._meta.concrete_fields[1:]).index("entry_id")]
        == entry.pk,
        "Django",
        "Model._prepare_related_fields_for_save no longer sets the key of a related object saved since",
        DB,
        DB_RECORD,
    )


def test_from_db_builds_the_loaded_instances_of_an_append():
    from django.db import DEFAULT_DB_ALIAS

    from arena.services.appends import conversation_loaded, message_loaded

    conversation = conversation_loaded(id=1, side="left", interrogation_id=2)
    message = message_loaded(id=3, conversation_id=1, seq=1, text="hi")
    for obj in (conversation, message):
        relied(
            (obj._state.adding, obj._state.db) == (False, DEFAULT_DB_ALIAS),
            "Django",
            "Model.from_db no longer marks the instance loaded from the database alias given",
            "arena/services/appends.py (conversation_loaded, message_loaded)",
            DB_RECORD,
        )
    relied(
        (conversation.pk, conversation.side, message.text) == (1, "left", "hi")
        and "status" in conversation.get_deferred_fields(),
        "Django",
        "Model.from_db no longer sets the fields named and defers the others",
        "arena/services/appends.py (conversation_loaded, message_loaded)",
        DB_RECORD,
    )


SMALL_RECORD = "0013-django-admin-and-cache-internals.md"


def test_model_admin_changeform_view_is_the_hook_the_wager_admin_wraps():
    from django.contrib.admin import ModelAdmin

    relied(
        parameters(ModelAdmin._changeform_view) == ["self", "request", "object_id", "form_url", "extra_context"],
        "Django",
        f"ModelAdmin._changeform_view takes {parameters(ModelAdmin._changeform_view)}",
        "tournaments/wager/admin.py (a refused save shown as a message)",
        SMALL_RECORD,
    )
    relied(
        "self._changeform_view(" in inspect.getsource(ModelAdmin.changeform_view),
        "Django",
        "ModelAdmin.changeform_view no longer calls _changeform_view",
        "tournaments/wager/admin.py (a refused save shown as a message)",
        SMALL_RECORD,
    )


def test_redis_cache_keeps_its_server_urls_in_servers():
    from django.core.cache.backends.redis import RedisCache

    cache = RedisCache("redis://127.0.0.1:6379/7", {})
    relied(
        getattr(cache, "_servers", None) == ["redis://127.0.0.1:6379/7"],
        "Django",
        "RedisCache no longer keeps its LOCATION's URLs in _servers",
        "core/ratelimit.py (_loop_client)",
        SMALL_RECORD,
    )


# --- python-socketio 4: lpp/lpp2/server.py ---------------------------------------------------------

LPP2, LPP2_RECORD = "lpp/lpp2/server.py (_legacy_manager)", "0011-socketio-v4-manager.md"


async def test_socketio_v4_manager_internals_the_legacy_manager_uses():
    import socketio_v4

    from lpp.lpp2.server import _legacy_manager

    expected = {
        (socketio_v4.AsyncManager, "emit"): [
            "self",
            "event",
            "data",
            "namespace",
            "room",
            "skip_sid",
            "callback",
            "kwargs",
        ],
        (socketio_v4.AsyncManager, "get_participants"): ["self", "namespace", "room"],
        (socketio_v4.AsyncManager, "_generate_ack_id"): ["self", "sid", "namespace", "callback"],
        (socketio_v4.AsyncServer, "_emit_internal"): ["self", "sid", "event", "data", "namespace", "id"],
    }
    for (cls, name), want in expected.items():
        got = parameters(getattr(cls, name, None) or (lambda: None))
        relied(got == want, "python-socketio 4", f"{cls.__name__}.{name} takes {got}, not {want}", LPP2, LPP2_RECORD)
    server = socketio_v4.AsyncServer(async_mode="asgi", client_manager=_legacy_manager())
    sent = []

    async def send_packet(sid, packet):
        sent.append((sid, packet.data, packet.namespace, packet.id))

    server._send_packet = send_packet
    manager = server.manager
    manager.connect("a", "/")
    manager.connect("b", "/")
    manager.enter_room("a", "/", "room")
    manager.enter_room("b", "/", "room")
    relied(
        set(manager.rooms["/"]["room"]) == {"a", "b"},
        "python-socketio 4",
        "AsyncManager.rooms no longer maps namespace -> room -> its sids",
        LPP2,
        LPP2_RECORD,
    )
    await server.emit("line", {"n": 1}, room="room", skip_sid="b")
    await server.emit("line", {"n": 2}, room="a", callback=lambda *a: None)
    relied(
        sent == [("a", ["line", {"n": 1}], "/", None), ("a", ["line", {"n": 2}], "/", 1)],
        "python-socketio 4",
        f"AsyncServer._emit_internal sent {sent}",
        LPP2,
        LPP2_RECORD,
    )


# --- python-aiml: bots/engines/aiml.py -------------------------------------------------------------

AIML, AIML_RECORD = "bots/engines/aiml.py (harden, converse)", "0012-aiml-kernel-internals.md"


def test_aiml_kernel_internals_the_engine_uses(tmp_path):
    import aiml

    from bots.engines.aiml import _respond, harden

    kernel = aiml.Kernel()
    kernel.verbose(False)
    for name in ("_sessions", "_botPredicates", "_elementProcessors"):
        relied(
            isinstance(getattr(kernel, name, None), dict), "python-aiml", f"Kernel.{name} is no dict", AIML, AIML_RECORD
        )
    for name in ("system", "learn", "javascript", "gossip", "id", "bot", "random"):
        relied(name in kernel._elementProcessors, "python-aiml", f"no <{name}> element processor", AIML, AIML_RECORD)
    for name, want in {
        "_addSession": ["self", "sessionID"],
        "_deleteSession": ["self", "sessionID"],
        "_processElement": ["self", "elem", "sessionID"],
    }.items():
        got = parameters(getattr(aiml.Kernel, name, None) or (lambda: None))
        relied(got == want, "python-aiml", f"Kernel.{name} takes {got}, not {want}", AIML, AIML_RECORD)
    brain = tmp_path / "guard.aiml"
    brain.write_text(
        '<?xml version="1.0" encoding="UTF-8"?><aiml version="1.0">'
        '<category><pattern>HELLO</pattern><template>I am <bot name="name"/>, <random><li>hi</li></random>'
        "</template></category></aiml>"
    )
    kernel.learn(str(brain))
    harden(kernel)
    reply = _respond(kernel, "guard-session", "hello", 0, {"name": "Ada"})
    relied(
        reply == "I am Ada, hi",
        "python-aiml",
        f"a hardened kernel answered {reply!r}: <bot> and <random> no longer go through _elementProcessors "
        "with the session's predicates",
        AIML,
        AIML_RECORD,
    )
    kernel._deleteSession("guard-session")
    relied("guard-session" not in kernel._sessions, "python-aiml", "_deleteSession kept the session", AIML, AIML_RECORD)


# --- WhiteNoise: core/staticfiles.py ---------------------------------------------------------------
STATIC_RECORD = "0014-whitenoise-middleware-overrides.md"
STATIC_MODULE = "core/staticfiles.py (StaticFilesMiddleware)"


def test_whitenoise_middleware_calls_the_three_methods_the_platform_overrides():
    from whitenoise.middleware import WhiteNoiseMiddleware

    init = inspect.getsource(WhiteNoiseMiddleware.__init__)
    relied(
        "self.add_files_from_finders()" in init and "self.add_files(" in init,
        "WhiteNoise",
        "WhiteNoiseMiddleware.__init__ no longer indexes files through self.add_files_from_finders() "
        "and self.add_files()",
        STATIC_MODULE,
        STATIC_RECORD,
    )
    relied(
        "self.serve(" in inspect.getsource(WhiteNoiseMiddleware.__call__),
        "WhiteNoise",
        "WhiteNoiseMiddleware.__call__ no longer answers through self.serve()",
        STATIC_MODULE,
        STATIC_RECORD,
    )
    signatures = {
        "add_files_from_finders": parameters(WhiteNoiseMiddleware.add_files_from_finders),
        "add_files": parameters(WhiteNoiseMiddleware.add_files),
        "serve": [p for p in parameters(WhiteNoiseMiddleware.serve) if p != "self"],
    }
    relied(
        signatures
        == {
            "add_files_from_finders": ["self"],
            "add_files": ["self", "root", "prefix"],
            "serve": ["static_file", "request"],
        },
        "WhiteNoise",
        f"the overridden methods take {signatures}",
        STATIC_MODULE,
        STATIC_RECORD,
    )


def test_whitenoise_middleware_keeps_the_attributes_the_finders_cache_is_keyed_on(settings):
    from core.staticfiles import StaticFilesMiddleware

    middleware = StaticFilesMiddleware(lambda request: None)
    missing = [
        name
        for name in ("static_prefix", "max_age", "allow_all_origins", "charset", "autorefresh", "files")
        if not hasattr(middleware, name)
    ]
    relied(not missing, "WhiteNoise", f"the middleware no longer has {missing}", STATIC_MODULE, STATIC_RECORD)
    relied(
        any(url.startswith(middleware.static_prefix) for url in middleware.files),
        "WhiteNoise",
        "the middleware's files are no longer keyed by their URL under static_prefix",
        STATIC_MODULE,
        STATIC_RECORD,
    )


@pytest.mark.django_db
def test_a_static_file_is_served_as_an_asynchronous_stream_under_asgi():
    from django.test import AsyncClient

    async def fetch():
        response = await AsyncClient().get("/static/arena/judge.js")
        body = b"".join([part async for part in response.streaming_content])
        return response, body

    response, body = asyncio.run(fetch())
    relied(
        response.status_code == 200 and response.is_async and body,
        "WhiteNoise",
        f"a static file under ASGI came back {response.status_code}, async={response.is_async}",
        STATIC_MODULE,
        STATIC_RECORD,
    )


# --- kombu: core/broker.py ------------------------------------------------------------------------


def test_kombu_redis_channel_still_reads_its_settings_from_the_transports_client():
    """core/broker.py's channel lends ``_connparams`` the settings it was opened with while the transport's
    ``client`` is collected (a broker outage): kombu must still read them there, by that method."""
    from kombu.transport import redis as kombu_redis

    where = ("kombu", "core/broker.py (Transport)", "0015-kombu-redis-channel-settings.md")
    method = getattr(kombu_redis.Channel, "_connparams", None)
    relied(method is not None, where[0], "Redis Channel._connparams is gone", *where[1:])
    relied(parameters(method) == ["self", "asynchronous"], where[0], "Channel._connparams's parameters", *where[1:])
    relied(
        "self.connection.client" in inspect.getsource(method),
        where[0],
        "where _connparams reads the settings",
        *where[1:],
    )
