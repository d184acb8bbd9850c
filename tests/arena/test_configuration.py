"""Settings come from the environment and fail loudly; system checks catch unsafe combinations."""

import os
import runpy
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.env import database, env

ROOT = Path(__file__).resolve().parents[2]
SIGNING_KEY = "nWGxne/9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A="  # an Ed25519 private key (RFC 8032 test 1), base64


def manage(*args, **environ):
    clean = {
        k: v
        for k, v in os.environ.items()
        if k
        not in {"DATABASE_URL", "REDIS_URL", "DEBUG", "SECRET_KEY", "ARENA_SIGNING_KEY", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    }
    clean.update(
        environ,
        DJANGO_SETTINGS_MODULE="config.settings",
        ARENA_DATA_DIR=environ.get("ARENA_DATA_DIR", "/tmp/arena-cfg-test"),
    )
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=60
    )


# every typed variable config/settings.py reads, with its minimum
BOOLEANS = [
    "DEBUG",
    "CELERY_TASK_ALWAYS_EAGER",
    "SERVE_STATIC",
    "ARENA_BEHIND_TLS_PROXY",
    "SECURE_SSL_REDIRECT",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
    "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE",
]
INTEGERS = {
    "ARENA_MAX_MESSAGE_CHARS": 1,
    "ARENA_DEFAULT_TIME_LIMIT_S": 10,
    "ARENA_BOT_REPLY_MAX_CHARS": 1,
    "ARENA_BOT_RETRIES": 0,
    "ARENA_BOT_BREAKER_FAILURES": 1,
    "ARENA_BOT_BREAKER_COOLDOWN_S": 1,
    "LAMBDASTAR_QUOTA_EPISODES": 1,
    "ARENA_STATE_MESSAGES": 1,
    "ARENA_REPLAY_MAX_KEYS": 0,
    "SECURE_HSTS_SECONDS": 0,
}
FLOATS = {"ARENA_BOT_RETRY_BASE_S": 0.0, "ARENA_PULL_MAX_WAIT_S": 0.0}
LISTS = ["ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS"]
BAD_VALUES = (
    [(name, raw) for name in BOOLEANS for raw in ("maybe", "2", "ok", "y", " true")]  # django-environ: True/False
    + [(name, raw) for name, least in INTEGERS.items() for raw in ("ten", "1.5", "0x10", str(least - 1))]
    + [
        (name, raw)
        for name, least in FLOATS.items()
        for raw in ("fast", "2.5s", "1,5", "nan", "inf", "-inf", str(least - 1))
    ]
    + [(name, " , ") for name in LISTS]
    + [
        ("DATABASE_URL", raw)
        for raw in ("mysql://x/y", "http://x/y", "postgres://host:5432/", "postgres://host:port/db", "sqlite://")
    ]
    + [("REDIS_URL", raw) for raw in ("http://127.0.0.1:6379", "redis://")]
    + [("ARENA_SIGNING_RETIRED_KEYS", raw) for raw in ("not-base64!", "c2hvcnQ=")]
)


def settings_from(monkeypatch, **environ):
    """config/settings.py run afresh in this environment (the loaded settings are left alone)."""
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(ROOT / "config" / "settings.py"))


@pytest.mark.parametrize(
    "raw, expected", [("true", True), ("0", False), ("Yes", True), ("off", False), ("ON", True), ("1", True)]
)
def test_booleans(monkeypatch, raw, expected):
    monkeypatch.setenv("X_FLAG", raw)
    assert env.bool("X_FLAG", not expected) is expected


@pytest.mark.parametrize("name, raw", BAD_VALUES)
def test_every_bad_value_fails_loudly_naming_the_variable_and_the_value(monkeypatch, name, raw):
    with pytest.raises(ImproperlyConfigured) as refused:
        settings_from(monkeypatch, **{name: raw})
    assert str(refused.value).startswith(f"{name}={raw!r}: ")


def test_good_values_and_defaults(monkeypatch):
    values = settings_from(
        monkeypatch,
        ARENA_PULL_MAX_WAIT_S="1e1",
        ARENA_BOT_RETRIES="0",
        SERVE_STATIC="No",
        ALLOWED_HOSTS=" a.example, ,b.example ",
        SECRET_KEY="$tarts-with-a-dollar",
        ARENA_BOTS_QUEUE="",
    )
    assert values["ARENA_PULL_MAX_WAIT_S"] == 10.0 and values["ARENA_BOT_RETRIES"] == 0
    assert values["SERVE_STATIC"] is False and values["ALLOWED_HOSTS"] == ["a.example", "b.example"]
    assert values["SECRET_KEY"] == "$tarts-with-a-dollar"  # taken literally, no django-environ proxy
    assert values["ARENA_BOTS_QUEUE"] == "" and values["ARENA_MAX_MESSAGE_CHARS"] == 1000  # empty or unset: default


def test_database_urls():
    db = database("postgres://ann:s%40cret@db.example:6543/arena?sslmode=require")
    assert db == {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": "arena",
        "USER": "ann",
        "PASSWORD": "s@cret",
        "HOST": "db.example",
        "PORT": "6543",
        "OPTIONS": {"sslmode": "require"},
        "CONN_MAX_AGE": 60,
        "CONN_HEALTH_CHECKS": True,
        "TEST": {"NAME": "test_arena"},
    }
    assert database("postgres://root@127.0.0.1:5432/test") == {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": "test",
        "USER": "root",
        "PASSWORD": "",
        "HOST": "127.0.0.1",
        "PORT": "5432",
        "OPTIONS": {},
        "CONN_MAX_AGE": 60,
        "CONN_HEALTH_CHECKS": True,
        "TEST": {"NAME": "test_test"},
    }
    for url, path in [
        ("sqlite:///srv/arena.sqlite3", "/srv/arena.sqlite3"),
        ("sqlite:////srv/arena.sqlite3", "/srv/arena.sqlite3"),
    ]:
        assert database(url) == {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": path,
            "TEST": {"NAME": path + ".test"},
        }
    with pytest.raises(ImproperlyConfigured) as refused:
        database("postgres://ann:s3cret@db.example:port/arena")
    assert "DATABASE_URL=" in str(refused.value) and "s3cret" not in str(refused.value)  # no password in logs


def test_the_test_database_has_its_own_name(monkeypatch):
    monkeypatch.setenv("DATABASE_URL", "postgres://root@127.0.0.1:5432/arena")
    monkeypatch.setenv("ARENA_TEST_RUN_ID", "77")
    import config

    # config.settings imported afresh by the test settings, then put back
    monkeypatch.setattr(config, "settings", sys.modules["config.settings"])
    monkeypatch.delitem(sys.modules, "config.settings")
    values = runpy.run_path(str(ROOT / "config" / "test_settings.py"))
    assert values["DATABASES"]["default"]["NAME"] == "arena"
    assert values["DATABASES"]["default"]["TEST"]["NAME"] == "test_arena_77"


def test_a_bad_environment_stops_the_platform_at_start_up():
    result = manage("check", DEBUG="perhaps")
    assert result.returncode != 0 and "DEBUG='perhaps'" in result.stderr


SERVICES = {"DATABASE_URL": "postgres://root@127.0.0.1:5432/arena", "ALLOWED_HOSTS": "arena.example"}


@pytest.mark.slow
def test_the_embedded_default_runs_with_debug_off_on_keys_it_generates_once(tmp_path):
    show = (
        "from django.conf import settings; from arena.transcript_keys import signing_key; "
        "from core.hashchain import key_id; "
        "print(settings.DEBUG, settings.SECRET_KEY, key_id(signing_key().public_key()))"
    )
    first = manage("shell", "-c", show, ARENA_DATA_DIR=str(tmp_path))
    debug, secret, key = first.stdout.split()[-3:]  # after the shell's "N objects imported"
    assert first.returncode == 0 and debug == "False", first.stderr
    assert len(secret) >= 50 and "insecure" not in secret
    assert (tmp_path / "secret-key").stat().st_mode & 0o777 == 0o600
    assert (tmp_path / "transcript-signing-key.pem").stat().st_mode & 0o777 == 0o600
    again = manage("shell", "-c", show, ARENA_DATA_DIR=str(tmp_path), DEBUG="1")
    assert again.stdout.split()[-3:] == ["True", secret, key]  # sessions and seals outlive a restart
    assert manage("check", ARENA_DATA_DIR=str(tmp_path)).returncode == 0


@pytest.mark.slow
def test_services_mode_with_debug_off_and_the_default_key_is_refused():
    result = manage("check", **SERVICES)
    assert result.returncode != 0 and "arena.E001" in result.stderr
    fine = manage("check", **SERVICES, SECRET_KEY="x" * 50, ARENA_SIGNING_KEY=SIGNING_KEY)
    assert fine.returncode == 0, fine.stderr
    assert manage("check", **SERVICES, DEBUG="true").returncode == 0  # a developer's services mode: keys of its own


@pytest.mark.slow
def test_services_mode_with_debug_off_and_no_transcript_signing_key_is_refused():
    production = {**SERVICES, "SECRET_KEY": "x" * 50}
    result = manage("check", **production)
    assert result.returncode != 0 and "arena.E004" in result.stderr and "ARENA_SIGNING_KEY" in result.stderr
    secret = "c2VjcmV0IGJ1dCBub3QgYSBrZXk="
    result = manage("check", **production, ARENA_SIGNING_KEY=secret)
    assert result.returncode != 0 and "ARENA_SIGNING_KEY" in result.stderr and secret not in result.stderr


@pytest.mark.slow
def test_workers_without_a_broker_are_refused():
    result = manage("check", CELERY_TASK_ALWAYS_EAGER="false")
    assert result.returncode != 0 and "arena.E002" in result.stderr and "arena.E003" in result.stderr


def test_demo_seed_is_idempotent_and_prints_logins(db):
    from io import StringIO

    from django.core.management import call_command

    from arena.models import Entry, Interrogation

    out = StringIO()
    call_command("seed_demo", stdout=out)
    call_command("seed_demo", stdout=out)
    assert "judge1" in out.getvalue() and "judge1-demo" in out.getvalue()
    assert Entry.objects.filter(display_name__in=["Simple Bot", "ELIZA"]).count() == 2
    assert Interrogation.objects.filter(status="scheduled").count() == 2
    for interrogation in Interrogation.objects.all():
        kinds = sorted("machine" if c.witness_entry_id else "human" for c in interrogation.conversations.all())
        assert kinds == ["human", "machine"]


def test_demo_history_is_judged_published_sealed_and_rated(db, client):
    from django.core.management import call_command

    from arena.models import ConversationSeal, Interrogation, Verdict

    call_command("seed_demo", stdout=open("/dev/null", "w"))
    call_command("seed_demo", stdout=open("/dev/null", "w"))
    history = Interrogation.objects.filter(title__startswith="Demo history")
    assert history.count() == 6 and all(i.published_at and i.status == "ended" for i in history)
    assert Verdict.objects.filter(interrogation__in=history).count() == 6
    assert ConversationSeal.objects.filter(conversation__interrogation__in=history).count() == 12
    for interrogation in history:  # the machines answered with their engines' own words
        machine = interrogation.conversations.get(witness_entry__isnull=False)
        assert machine.messages.filter(sender_role="witness").count() == 2
    page = client.get("/results/").content.decode()
    assert "ELIZA" in page and "Simple Bot" in page and "6 battles" in page


def production_environment() -> dict:
    """deploy/production.env.example, its placeholders filled as an operator would fill them."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from core.signing import private_key_text

    filled = {
        "SECRET_KEY": secrets.token_urlsafe(64),
        "ARENA_SIGNING_KEY": private_key_text(Ed25519PrivateKey.generate()),
        "ARENA_METRICS_TOKEN": secrets.token_urlsafe(32),
    }
    environ = {}
    for line in (ROOT / "deploy" / "production.env.example").read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, _, value = line.partition("=")
            environ[name] = filled.get(name, value.replace("<database password>", "secret"))
    assert not [name for name, value in environ.items() if "<" in value], environ
    return environ


@pytest.mark.slow
def test_the_production_environment_passes_the_deployment_checks_with_no_warning():
    environ = production_environment()
    assert {"SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE"} <= set(environ)
    result = manage("check", "--deploy", "--fail-level", "WARNING", **environ)
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout
    # without the HTTPS settings, the same checks name each one
    bare = {k: v for k, v in environ.items() if not k.startswith(("SECURE_", "SESSION_", "CSRF_COOKIE"))}
    warned = manage("check", "--deploy", "--fail-level", "WARNING", **bare)
    assert warned.returncode != 0
    for check in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert check in warned.stderr
