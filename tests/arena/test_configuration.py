"""Settings come from the environment and fail loudly; system checks catch unsafe combinations."""
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from config import env

ROOT = Path(__file__).resolve().parents[2]


def manage(*args, **environ):
    clean = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "DEBUG", "SECRET_KEY"}}
    clean.update(environ, DJANGO_SETTINGS_MODULE="config.settings", ARENA_DATA_DIR=environ.get("ARENA_DATA_DIR", "/tmp/arena-cfg-test"))
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("raw, expected", [("true", True), ("0", False), ("Yes", True), ("off", False)])
def test_booleans(monkeypatch, raw, expected):
    monkeypatch.setenv("X_FLAG", raw)
    assert env.env_bool("X_FLAG", not expected) is expected


@pytest.mark.parametrize(
    "name, raw, reader",
    [
        ("X_FLAG", "maybe", lambda: env.env_bool("X_FLAG", True)),
        ("X_INT", "ten", lambda: env.env_int("X_INT", 1)),
        ("X_INT", "0", lambda: env.env_int("X_INT", 1, minimum=1)),
        ("X_LIST", " , ", lambda: env.env_list("X_LIST", ["a"])),
        ("X_FLOAT", "fast", lambda: env.env_float("X_FLOAT", 1.0)),
        ("X_FLOAT", "nan", lambda: env.env_float("X_FLOAT", 1.0)),
        ("X_FLOAT", "-1", lambda: env.env_float("X_FLOAT", 1.0, minimum=0.0)),
    ],
)
def test_bad_values_fail_loudly_naming_the_variable(monkeypatch, name, raw, reader):
    monkeypatch.setenv(name, raw)
    with pytest.raises(ImproperlyConfigured, match=name):
        reader()


def test_database_urls():
    db = env.parse_database_url("postgres://ann:s%40cret@db.example:6543/arena?sslmode=require")
    assert (db["ENGINE"], db["NAME"], db["USER"], db["PASSWORD"], db["HOST"], db["PORT"]) == (
        "django.db.backends.postgresql", "arena", "ann", "s@cret", "db.example", "6543")
    assert db["OPTIONS"] == {"sslmode": "require"} and db["TEST"]["NAME"] == "test_arena"
    for bad in ("mysql://x/y", "postgres://host:5432/", "postgres://host:port/db"):
        with pytest.raises(ImproperlyConfigured, match="DATABASE_URL"):
            env.parse_database_url(bad)
    with pytest.raises(ImproperlyConfigured, match="REDIS_URL"):
        env.check_redis_url("http://127.0.0.1:6379")


def test_a_bad_environment_stops_the_platform_at_start_up():
    result = manage("check", DEBUG="perhaps")
    assert result.returncode != 0 and "DEBUG='perhaps'" in result.stderr


def test_debug_off_with_the_default_key_is_refused():
    result = manage("check", DEBUG="false", ALLOWED_HOSTS="arena.example")
    assert result.returncode != 0 and "arena.E001" in result.stderr
    fine = manage("check", DEBUG="false", ALLOWED_HOSTS="arena.example", SECRET_KEY="x" * 50)
    assert fine.returncode == 0, fine.stderr


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
