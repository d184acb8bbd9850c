"""System checks for configuration that would otherwise fail at the worst moment."""

from django.conf import settings
from django.core.checks import Error, Tags, Warning, register


@register(Tags.security, deploy=False)
def insecure_key_without_debug(app_configs, **kwargs):
    if not settings.DEBUG and settings.SECRET_KEY == settings.INSECURE_DEFAULT_SECRET_KEY:
        return [
            Error(
                "Services mode with DEBUG off, and SECRET_KEY is the insecure development default.",
                hint="Set SECRET_KEY in the environment to a long random value, the same for every daphne and "
                "Celery process (the embedded default generates one into ARENA_DATA_DIR).",
                id="arena.E001",
            )
        ]
    return []


@register()
def services_mode_consistency(app_configs, **kwargs):
    problems = []
    if not settings.CELERY_TASK_ALWAYS_EAGER and settings.CELERY_BROKER_URL.startswith("memory://"):
        problems.append(
            Error(
                "Celery tasks are not eager but the broker is in-memory: no worker could ever see them.",
                hint="Set REDIS_URL (or CELERY_BROKER_URL), or leave CELERY_TASK_ALWAYS_EAGER on.",
                id="arena.E002",
            )
        )
    layer = settings.CHANNEL_LAYERS["default"]["BACKEND"]
    if not settings.CELERY_TASK_ALWAYS_EAGER and layer.endswith("InMemoryChannelLayer"):
        problems.append(
            Error(
                "Celery workers run in other processes but the channel layer is in-memory: their pushes are lost.",
                hint="Set REDIS_URL so the channel layer is Redis.",
                id="arena.E003",
            )
        )
    if settings.DATABASES["default"]["ENGINE"].endswith("sqlite3") and settings.REDIS_URL:
        problems.append(
            Warning(
                "Redis is configured but the database is SQLite: several workers writing to SQLite will contend.",
                hint="Set DATABASE_URL to a PostgreSQL database in services mode.",
                id="arena.W001",
            )
        )
    return problems


@register(Tags.security)
def transcript_signing_key(app_configs, **kwargs):
    if not settings.ARENA_SIGNING_KEY and not settings.ARENA_SIGNING_KEY_FILE:
        return [
            Error(
                "Services mode with DEBUG off, and no ARENA_SIGNING_KEY is set: ended interrogations could not seal "
                "their transcripts.",
                hint="Set ARENA_SIGNING_KEY to an Ed25519 private key, base64 of its 32 bytes or PEM (`python -m "
                "core.signing` prints a new one). Keep it secret and stable; when you replace it, list the old "
                "key's public key in ARENA_SIGNING_RETIRED_KEYS so that its seals still verify.",
                id="arena.E004",
            )
        ]
    return []
