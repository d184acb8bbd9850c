"""Settings for the test suite: the environment decides the mode, exactly as in production."""
from config.settings import *  # noqa: F401,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # speed, tests only
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
