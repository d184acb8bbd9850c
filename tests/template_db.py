"""One migrated PostgreSQL database per parallel run, cloned by each test process.

Every process of a parallel run (pytest-xdist) has a test database of its own. Migrating one takes a
process 10-25 s of CPU; PostgreSQL copies a migrated one in well under a second (CREATE DATABASE ...
TEMPLATE). So the run migrates a template once (``python -m tests.template_db``, started by
tests/prebuild.py while the test processes start), and each test process creates its database from it
(Django's TEST["TEMPLATE"]): the migrate that Django runs next finds every migration applied. Where
building the template failed, each process migrates its own database. SQLite is left as it is.
"""

import os

NAME_ENV = "ARENA_TEST_DB_TEMPLATE"
KEY = "template_db"


def name_for(connection):
    """The run's template name, from this process's test database settings (before xdist's suffix)."""
    test_name = connection.settings_dict["TEST"].get("NAME") or f"test_{connection.settings_dict['NAME']}"
    return f"{test_name}_template"


def start(connection):
    """In the controlling process: start building the template; None where the database is not PostgreSQL."""
    from tests.prebuild import Prebuild

    if connection.vendor != "postgresql":
        return None
    os.environ[NAME_ENV] = name_for(connection)
    return Prebuild(KEY, ["-m", "tests.template_db"])


def use(connection):
    """In a test process, before its test database is created: from the template, once it is built."""
    from tests.prebuild import done

    if connection.vendor == "postgresql" and os.environ.get(NAME_ENV) and done(KEY):
        connection.settings_dict["TEST"]["TEMPLATE"] = os.environ[NAME_ENV]


def drop(connection):
    """In the controlling process, at the end of the run."""
    with connection.creation._nodb_cursor() as cursor:
        cursor.execute(f"DROP DATABASE IF EXISTS {connection.ops.quote_name(os.environ[NAME_ENV])}")


def build():
    """Create and migrate the template: Django's own test database creation, under the template's name."""
    from django.db import connection

    connection.settings_dict["TEST"]["NAME"] = os.environ[NAME_ENV]
    try:
        connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    finally:
        connection.close()  # a database with a session on it cannot be a template


if __name__ == "__main__":
    import django

    django.setup()
    build()
