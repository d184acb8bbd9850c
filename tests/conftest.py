"""Shared fixtures: a named cast of users, entries, a live daphne server and a Celery worker.

The suite runs in whichever mode the environment selects (see config/settings.py): the embedded
default without DATABASE_URL/REDIS_URL, services mode (PostgreSQL, Redis) with them, as CI does.
"""

import multiprocessing
import os
import socket
import sys
import uuid
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial

import pytest

# Playwright's sync API runs an event loop in the main thread; the ORM calls made around it
# (fixtures, the transactional_db flush) are safe in this single-threaded test process.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

# A run starts hundreds of interpreters (test processes, servers, workers, command-line tools): with
# bytecode caching off (PYTHONDONTWRITEBYTECODE) each compiles the project's modules, and pytest rewrites
# every test module, again: seconds of CPU apiece. This run and the processes it starts cache it.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

# The live daphne server runs in a fresh interpreter: a forked copy of this process would inherit
# thread pools (asgiref's executors, Celery's worker) without their threads, and hang.
multiprocessing.set_start_method("spawn", force=True)


#: Tables a transactional test's flush leaves as they are (see _flush_by_delete).
KEPT = {"django_content_type", "auth_permission", "auth_group", "auth_group_permissions"}


def _flush_by_delete():
    """A transactional test ends by emptying every table (TransactionTestCase's flush). PostgreSQL's
    TRUNCATE gives each of the project's tables a new file, seconds per test; deleting the few rows a test
    left takes milliseconds. The foreign keys Django creates on PostgreSQL are checked at commit
    (DEFERRABLE INITIALLY DEFERRED), so the order of the deletes does not matter; the tables are locked
    against writes first, so that a server still at work cannot slip a row in between; a table whose
    triggers refuse DELETE (an append-only audit trail) is truncated; sequences are reset only on request,
    as with TRUNCATE. What the migrations' post_migrate handlers made stays (the content types, the
    permissions, the role groups: KEPT), so the flush sends no post_migrate to make them again (inserting
    hundreds of rows: a third of a second per test); no test changes them."""
    try:
        from django.db.backends.postgresql.operations import DatabaseOperations
    except ImportError:  # no PostgreSQL driver: the embedded default only
        return
    truncate = DatabaseOperations.sql_flush

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        tables = [table for table in tables if table not in KEPT]
        if reset_sequences or allow_cascade or not tables:
            return truncate(self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade)
        with self.connection.cursor() as cursor:
            cursor.execute(
                "SELECT DISTINCT c.relname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
                "WHERE NOT t.tgisinternal"
            )
            guarded = {name for (name,) in cursor.fetchall()}
        quoted = ", ".join(self.quote_name(table) for table in tables)
        statements = [
            f"LOCK TABLE {quoted} IN EXCLUSIVE MODE;",
            *(f"DELETE FROM {self.quote_name(table)};" for table in tables if table not in guarded),
            *truncate(self, style, [table for table in tables if table in guarded]),
        ]
        return ["\n".join(statements)]  # one round trip to the server, not one per table

    DatabaseOperations.sql_flush = sql_flush
    from django.core.management.commands import flush

    emit = flush.emit_post_migrate_signal

    def emit_unless_kept(verbosity, interactive, db, **kwargs):
        from django.db import connections

        if connections[db].vendor != "postgresql":  # SQLite's flush deletes every table
            emit(verbosity, interactive, db, **kwargs)
        else:  # as post_migrate's handler would: this process's cached content types are read afresh
            from django.contrib.contenttypes.models import ContentType

            ContentType.objects.clear_cache()

    flush.emit_post_migrate_signal = emit_unless_kept


_flush_by_delete()

ORIGIN = [(b"origin", b"http://127.0.0.1")]
FAST = {"think_s": 0, "per_char_s": 0, "jitter": 0, "read_per_char_s": 0}


@dataclass
class Cast:
    """organiser olivia; judges jude and june; confederates connie and carl; outsider oscar."""

    olivia: object
    jude: object
    june: object
    connie: object
    carl: object
    oscar: object
    simple: object
    eliza: object


def pytest_addoption(parser):
    parser.addoption(
        "--record-durations",
        action="store_true",
        help="write each test file's seconds to tests/durations.json (the parallel run's order, tests/schedule.py)",
    )


def pytest_configure(config):
    if config.getoption("record_durations") and not hasattr(config, "workerinput"):
        from tests.schedule import Recorder

        config.pluginmanager.register(Recorder(), "arena-durations")


def pytest_collection_modifyitems(config, items):
    """Longest files first, those waiting for the compiled kernels a few minutes in (tests/schedule.py)."""
    from tests import schedule

    processes = getattr(config, "workerinput", {}).get("workercount", 1)
    items[:] = schedule.order(items, schedule.load(), processes)


@pytest.hookimpl(optionalhook=True)  # without pytest-xdist installed there is no such hook
def pytest_xdist_auto_num_workers(config):
    """`-n auto`: two test processes per core. Much of a test's time is spent waiting (on a server, a
    worker, a browser, the database), so more processes than cores keep the cores busy. Five on two cores
    ran the suite faster (8:15-9:24 against 10:04) but left the browser tests' machine witnesses, whose
    replies go through a Celery worker, answering too late in three runs of four."""
    return max(2, 2 * (os.cpu_count() or 1))


def pytest_sessionstart(session):
    """A parallel run's controlling process starts the work its test processes share (tests/prebuild.py)
    before it starts them (xdist does in its own, later, sessionstart): the template database, and the
    compiled Λ* kernels, one rule set per process."""
    config = session.config
    if hasattr(config, "workerinput") or config.getoption("dist", "no") == "no":
        return
    from django.db import connection

    from tests import template_db
    from tests.prebuild import Prebuild

    config.arena_template_db = template_db.start(connection)
    config.arena_prebuilds = [
        Prebuild(f"kernels_{rules}", ["-m", "lambdastar.engine", "warm", "--rules", rules]) for rules in KERNEL_RULES
    ]


def pytest_unconfigure(config):
    for prebuild in getattr(config, "arena_prebuilds", []):
        prebuild.finish()
    template = getattr(config, "arena_template_db", None)
    if template is not None:
        from django.db import connection
        from pytest_django.plugin import blocking_manager_key

        from tests import template_db

        template.finish()
        with config.stash[blocking_manager_key].unblock():
            template_db.drop(connection)


#: The rule sets whose kernels a parallel run compiles ahead (lambdastar.engine.warm), each in a process.
KERNEL_RULES = ("paper", "reference-2016")


@pytest.fixture(scope="session")
def compiled_kernels():
    """The Λ* kernels in numba's on-disk cache: waits for a parallel run's warm-up (tests/prebuild.py)."""
    from tests.prebuild import done

    for rules in KERNEL_RULES:
        done(f"kernels_{rules}")


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    """pytest-django's database settings of this test process; its database is created from the run's
    template (tests/template_db.py)."""
    from django.db import connection

    from tests import template_db

    template_db.use(connection)


def make_user(username, *role_names, staff=False):
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    user = get_user_model().objects.create_user(username=username, password=f"{username}-pw")
    user.is_staff = user.is_superuser = staff
    user.save()
    user.groups.add(*Group.objects.filter(name__in=role_names))
    return user


@pytest.fixture
def cast(db):
    return cast_make()


def cast_make():
    """The named cast (see Cast), for fixtures of wider scope than ``cast``'s."""
    from arena import roles
    from arena.models import Entry
    from arena.setup import ensure_role_groups

    ensure_role_groups()
    return Cast(
        olivia=make_user("olivia", roles.ORGANISER, staff=True),
        jude=make_user("jude", roles.JUDGE),
        june=make_user("june", roles.JUDGE),
        connie=make_user("connie", roles.CONFEDERATE),
        carl=make_user("carl", roles.CONFEDERATE),
        oscar=make_user("oscar"),
        simple=Entry.objects.create(display_name="Simple Bot", engine="simple", settings=dict(FAST)),
        eliza=Entry.objects.create(display_name="ELIZA", engine="eliza", settings=dict(FAST)),
    )


@pytest.fixture(autouse=True)
def fresh_rate_limits(settings):
    """Each test's users start with their whole rate-limit budget: core.ratelimit counts frames per user
    id in the cache for a minute, and ids repeat from test to test (a fresh key prefix per test)."""
    caches = {alias: dict(config) for alias, config in settings.CACHES.items()}
    caches["default"]["KEY_PREFIX"] = f"{caches['default'].get('KEY_PREFIX', '')}{uuid.uuid4().hex}"
    settings.CACHES = caches


@pytest.fixture
def services_mode(settings):
    return not settings.CELERY_TASK_ALWAYS_EAGER


@pytest.fixture(scope="session")
def end_stray_sessions(django_db_setup, django_db_blocker):
    """Killed servers and stopped workers leave PostgreSQL sessions behind, which would block dropping
    the test database at the end of the run: end them just before it is dropped."""
    yield
    with django_db_blocker.unblock():
        _drop_other_sessions()


@pytest.fixture
def task_worker(services_mode, transactional_db, end_stray_sessions):
    """Services mode: a real Celery worker (solo pool, in a thread) on the Redis broker.
    Embedded default: nothing to start, tasks run in-process on background threads."""
    if not services_mode:
        yield None
        return
    import celery.contrib.testing.tasks  # noqa: F401  registers celery.ping for the ping check
    from celery.contrib.testing.worker import start_worker

    from config.celery_app import app

    app.control.purge()
    with start_worker(
        app, pool="solo", perform_ping_check=True, shutdown_timeout=10, queues=["celery", "lambdastar", "bots"]
    ) as worker:
        yield worker


def _application():
    import django

    django.setup()
    from config.asgi import application  # serves /static/ itself (SERVE_STATIC defaults on)

    return application


def _use_test_database(name, cache_prefix=None):
    from django.conf import settings

    settings.DATABASES["default"]["NAME"] = name
    if cache_prefix is not None:  # the test's own cache key space (fresh_rate_limits), shared with the test
        from django.core.signals import setting_changed
        from django.test import signals  # noqa: F401  connects the receiver that rebuilds the cache handler

        settings.CACHES = {
            alias: {**config, "KEY_PREFIX": cache_prefix} if alias == "default" else config
            for alias, config in settings.CACHES.items()
        }
        setting_changed.send(sender=None, setting="CACHES", value=settings.CACHES, enter=True)


@pytest.fixture
def live_daphne(transactional_db, end_stray_sessions, shared_daphne, settings, request):
    """A real daphne process serving the project on 127.0.0.1 (websockets included), on the test's database
    and the test's cache key space (in services mode a results version bumped by the test reaches it).

    The server the module's tests share (shared_daphne), unless the test changed the environment the server
    reads its settings from (monkeypatch.setenv: then a server of its own, started with that environment)
    or is marked own_daphne (it needs the state a fresh server starts with)."""
    if shared_daphne.serves(os.environ) and not request.node.get_closest_marker("own_daphne"):
        yield shared_daphne.url(settings.CACHES["default"].get("KEY_PREFIX", ""))
        return
    with daphne_serving() as base_url:
        yield base_url


@contextmanager
def daphne_serving():
    """live_daphne's server, for fixtures of wider scope: on the current test database and cache key space."""
    from django.conf import settings

    process = _daphne_start(
        partial(_use_test_database, settings.DATABASES["default"]["NAME"], settings.CACHES["default"].get("KEY_PREFIX"))
    )
    try:
        yield f"http://127.0.0.1:{process.port.value}"
    finally:
        process.terminate()
        process.join(10)


def _daphne_start(setup):
    from daphne.testing import DaphneProcess
    from django.db import connections

    connections.close_all()
    process = DaphneProcess("127.0.0.1", _application, setup=setup)
    process.daemon = True
    process.start()
    if not process.ready.wait(60):  # a fresh interpreter importing the project: slow on a loaded machine
        process.terminate()
        raise RuntimeError("daphne did not start within 60 s")
    return process


# --- one daphne per test process, for the tests that need only a server ----------------------------
#: Set in the shared server: the cache key prefix of the test it serves now.
_SERVED_KEY_PREFIX = None


def _served_cache_key(key, key_prefix, version):
    """The shared server's cache keys: those of the test it serves now (Django's default key form)."""
    return f"{_SERVED_KEY_PREFIX.value.decode()}:{version}:{key}"


def _serve_by_turns(name, key_prefix):
    """The shared server's set-up: the test database, and the cache key space of whichever test it serves
    (`key_prefix`, memory shared with the test process, holds that test's prefix)."""
    global _SERVED_KEY_PREFIX
    from django.conf import settings
    from django.core.signals import setting_changed
    from django.test import signals  # noqa: F401  (connects the receiver that rebuilds the cache handler)

    _SERVED_KEY_PREFIX = key_prefix
    _use_test_database(name)
    # a connection that an earlier test's clean-up ended (_drop_other_sessions) is replaced, not used
    settings.DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    settings.CACHES = {
        alias: {**config, "KEY_FUNCTION": _served_cache_key} if alias == "default" else config
        for alias, config in settings.CACHES.items()
    }
    setting_changed.send(sender=None, setting="CACHES", value=settings.CACHES, enter=True)


class SharedDaphne:
    """A daphne process that serves one test of a module after another: started at the first test that
    asks, on this process's test database (each test's rows are its own: it is emptied after every transactional test),
    and switched to each test's cache key space as the test begins. A fresh interpreter importing the
    project takes seconds; most tests need a server, not a new one."""

    IGNORED = {"PYTEST_CURRENT_TEST"}  # set by pytest for each test

    def __init__(self, environ):
        self.environ = self._settings_environ(environ)
        self.prefix = multiprocessing.Array("c", 512)
        self.process = None

    @classmethod
    def _settings_environ(cls, environ):
        return {key: value for key, value in environ.items() if key not in cls.IGNORED}

    def serves(self, environ):
        """Whether a server started now would see the environment this one saw."""
        return self._settings_environ(environ) == self.environ

    def url(self, key_prefix):
        from django.conf import settings

        self.prefix.value = key_prefix.encode()
        if self.process is None or not self.process.is_alive():
            self.process = _daphne_start(partial(_serve_by_turns, settings.DATABASES["default"]["NAME"], self.prefix))
        return f"http://127.0.0.1:{self.process.port.value}"

    def stop(self):
        if self.process is not None:
            self.process.terminate()
            self.process.join(10)
            self.process = None


@pytest.fixture(scope="module")
def shared_daphne(django_db_setup, end_stray_sessions):
    """The module's SharedDaphne: stopped when the module's tests are done, so that nothing a server holds
    (connections, state in memory) outlives the module."""
    server = SharedDaphne(os.environ)
    yield server
    server.stop()


def _drop_other_sessions(*, other_processes_only=False):
    """A killed server leaves its PostgreSQL session behind, which would block dropping the test DB: end
    every other session on it. With `other_processes_only`, spare this test process's own sessions (its
    threads' connections, which later tests go on using): each process names its sessions
    (config/test_settings.py's application_name)."""
    from django.conf import settings
    from django.db import connection

    if connection.vendor == "postgresql":
        sql = (
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        params = []
        if other_processes_only:
            sql += " AND application_name IS DISTINCT FROM %s"
            params.append(settings.DATABASES["default"]["OPTIONS"]["application_name"])
        with connection.cursor() as cursor:
            cursor.execute(sql, params)


def redis_available(url):
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    try:
        with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 6379), timeout=0.5):
            return True
    except OSError:
        return False


def migrate_to(targets):
    """Migrate the test database to `targets` ([(app, migration)]); the apps of that state."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps
