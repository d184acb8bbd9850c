"""A backup restored as docs/operations/backups.md tells an operator: `pg_dump` of a database with sealed
transcripts, market ledgers and results, `pg_restore` into a fresh database, then the documented checks
run against it with the same keys: migrations applied, every seal verifies, every ledger balances, and the
ratings are the same as before."""

import json
import os
import secrets
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection

from arena import transcript_keys
from core.signing import private_key_text

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not os.environ.get("DATABASE_URL", "").startswith("postgres"), reason="needs PostgreSQL (pg_dump)"
    ),
]


def _pg(*args: str) -> subprocess.CompletedProcess:
    db = connection.settings_dict
    where = ["--host", db["HOST"] or "127.0.0.1", "--port", str(db["PORT"] or 5432), "--username", db["USER"]]
    env = {**os.environ, "PGPASSWORD": db["PASSWORD"] or ""}
    return subprocess.run([args[0], *where, *args[1:]], capture_output=True, text=True, env=env, timeout=120)


def _manage(database: str, *args: str) -> subprocess.CompletedProcess:
    """A management command on the restored database, with the keys the platform had (as step 3 says)."""
    db = connection.settings_dict
    url = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{database}"
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DJANGO_SETTINGS_MODULE", "DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    }
    env.update(
        DATABASE_URL=url,
        SECRET_KEY=secrets.token_urlsafe(50),  # the tests' is the development default; no check here reads it
        ARENA_SIGNING_KEY=private_key_text(transcript_keys.signing_key()),
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, capture_output=True, text=True, env=env, timeout=180
    )


def _ratings() -> list[dict]:
    out = StringIO()
    call_command("ratings", "--json", "--bootstrap", "0", stdout=out, stderr=StringIO())
    return json.loads(out.getvalue())["ratings"]


@pytest.mark.django_db(transaction=True)  # pg_dump sees only committed rows
def test_a_restored_dump_verifies_every_seal_and_ledger_and_gives_the_same_ratings(tmp_path, end_stray_sessions):
    from arena.models import ConversationSeal
    from markets.models import Trade

    call_command("seed_demo", stdout=StringIO())  # sealed, judged and rated interrogations
    call_command("seed_demo_markets", stdout=StringIO())  # Turing Trade games with trades on their ledgers
    sealed, trades, ratings = ConversationSeal.objects.count(), Trade.objects.count(), _ratings()
    assert sealed >= 12 and trades > 0 and len(ratings) >= 2

    dump = tmp_path / "arena.dump"
    made = _pg("pg_dump", "--format=custom", "--file", str(dump), connection.settings_dict["NAME"])
    assert made.returncode == 0, made.stderr
    restored = f"{connection.settings_dict['NAME']}_restored"
    _pg("dropdb", "--if-exists", restored)
    assert _pg("createdb", restored).returncode == 0
    try:
        loaded = _pg("pg_restore", "--no-owner", "--dbname", restored, str(dump))
        assert loaded.returncode == 0, loaded.stderr

        applied = _manage(restored, "migrate", "--check")
        assert applied.returncode == 0, applied.stdout + applied.stderr
        seals = _manage(restored, "verify_transcript", "--all")
        assert seals.returncode == 0, seals.stderr
        assert f"{sealed} of {sealed} ended conversations verify." in seals.stdout
        books = _manage(restored, "markets_audit")
        assert books.returncode == 0 and "books balance" in books.stdout, books.stdout + books.stderr
        again = _manage(restored, "ratings", "--json", "--bootstrap", "0")
        assert again.returncode == 0, again.stderr
        assert json.loads(again.stdout)["ratings"] == ratings
    finally:
        _pg("dropdb", "--if-exists", "--force", restored)
