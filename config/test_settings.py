"""Settings for the test suite: the environment decides the mode, exactly as in production."""
from config.settings import *  # noqa: F401,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # speed, tests only
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"

import os  # noqa: E402

# One test database per test run, so that runs side by side (several checkouts, editors, CI) never
# share it; a live daphne child is handed this name explicitly (tests/conftest.py).
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):  # noqa: F405
    DATABASES["default"]["TEST"]["NAME"] = DATA_DIR / f"test_arena_{os.getpid()}.sqlite3"  # noqa: F405
else:
    DATABASES["default"]["TEST"]["NAME"] = f"test_{DATABASES['default']['NAME']}_{os.getpid()}"  # noqa: F405
