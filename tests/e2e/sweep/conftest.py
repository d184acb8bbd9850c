"""The sweep's world, built once per module: the permissions matrix's objects (build_world), an open study
for /play/, one daphne serving them, and one browser context per cast member, logged in by cookie."""

import os
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.conf import settings

from tests.conftest import _drop_other_sessions, cast_make, daphne_serving

AXE = Path(settings.BASE_DIR) / "static" / "vendor" / "axe-core" / "axe.min.js"
SCREENSHOTS = Path(os.environ.get("SCREENSHOTS_DIR", Path(settings.BASE_DIR) / "test-artifacts" / "screenshots"))
SAVED: list[Path] = []


@pytest.fixture(scope="module")
def axe_script():
    assert AXE.is_file()  # kept in the repository (core/vendor.py)
    return "/static/vendor/axe-core/axe.min.js"


@pytest.fixture(scope="module")
def screenshots():
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


@pytest.fixture(scope="module")
def sweep_site(django_db_setup, django_db_blocker, end_stray_sessions):
    """(base URL, placeholder ids, users by name): committed data, flushed when the module ends."""
    from django.core.management import call_command

    from tests.hardening.test_permissions import build_world
    from tests.studies.helpers import study_make

    with django_db_blocker.unblock(), _test_database():
        try:
            users, _, ids = build_world(cast_make())
            _qualifying_answers(ids["contest"])
            ids["study"] = str(
                study_make(  # the newest open study: the one /play/ serves, matched with a bot at once
                    human_witness_share=0.0, exit_questions=[{"key": "fun", "label": "Was it fun?"}]
                ).pk
            )
            with daphne_serving() as base_url:
                yield base_url, ids, {user.username: user for user in users.values() if user is not None}
        finally:
            _drop_other_sessions(other_processes_only=True)  # the server's; this process's threads go on
            call_command("flush", interactive=False, verbosity=0)


def _qualifying_answers(contest_id):
    """A human control's answers on the contest's qualifying page: a score to choose for each."""
    from tournaments.loebner import services
    from tournaments.loebner.models import Contest, Question, QuestionSet

    question_set = QuestionSet.objects.create(name="Sweep questions")
    for order, text in enumerate(("What is your name?", "What did you eat today?"), 1):
        Question.objects.create(question_set=question_set, order=order, text=text, category="memory")
    Contest.objects.filter(pk=contest_id).update(question_set=question_set)
    services.control_answers_record(contest_id=contest_id, name="Control 1", answers={1: "Sam", 2: "Toast"})


@contextmanager
def _test_database():
    """pytest-django creates the test database only for a run with tests marked django_db (or asking for
    db): these tests aren't (each would run in a transaction, or flush the world), so when the sweep runs
    on its own it creates the database itself."""
    from django.db import connection
    from django.test.utils import setup_databases, teardown_databases

    if connection.settings_dict["NAME"] == connection.creation._get_test_db_name():
        yield
        return
    made = setup_databases(verbosity=0, interactive=False, aliases={"default"})
    try:
        yield
    finally:
        teardown_databases(made, verbosity=0)


@pytest.fixture(scope="module")
def contexts(browser, sweep_site):
    """username -> a browser context logged in as them (a session made by Django's test client)."""
    from django.test import Client

    base_url, _, users = sweep_site
    made = {}

    def context_of(username):
        if username not in made:
            context = made[username] = browser.new_context(base_url=base_url)
            if username is not None:
                client = Client()
                client.force_login(users[username])
                cookie = client.cookies[settings.SESSION_COOKIE_NAME]
                context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": base_url}])
        return made[username]

    yield context_of
    for context in made.values():
        context.close()


def pytest_terminal_summary(terminalreporter):
    if SAVED:
        terminalreporter.write_line(f"page sweep: {len(SAVED)} screenshots in {SCREENSHOTS}")
