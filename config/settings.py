"""Settings, read from the environment.

Two modes share this one file:
- embedded default (no DATABASE_URL / REDIS_URL): SQLite file, in-memory channel layer, tasks run
  in-process on background threads;
- services mode (DATABASE_URL and REDIS_URL set): PostgreSQL, Redis channel layer, Celery with a
  Redis broker and separate worker processes.
Read with django-environ through config.env, which fails loudly on a value it cannot take.
"""

from pathlib import Path

from config.env import env
from core.keyfiles import secret_key_file
from core.redis_options import cache_options, layer_host

BASE_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = Path(env.str("ARENA_DATA_DIR", str(BASE_DIR / "var")))

# Off unless DEBUG=1: the embedded default (`make run`) serves as deployed, with friendly error pages.
DEBUG = env.bool("DEBUG", False)
DATABASE_URL = env.str("DATABASE_URL")
# Keys the platform may generate for itself, once, into ARENA_DATA_DIR (mode 0600) when none is set: in
# the embedded default (one process on one machine) or with DEBUG on. In services mode with DEBUG off
# (daphne and Celery processes on several machines, which must share them) SECRET_KEY and
# ARENA_SIGNING_KEY must be set: system checks arena.E001 and arena.E004 refuse to start without them.
LOCAL_KEYS = DEBUG or not DATABASE_URL
INSECURE_DEFAULT_SECRET_KEY = "django-insecure-turing-arena-development-key-do-not-deploy"
SECRET_KEY = env.str("SECRET_KEY") or (
    secret_key_file(DATA_DIR / "secret-key") if LOCAL_KEYS else INSECURE_DEFAULT_SECRET_KEY
)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", ["http://127.0.0.1:8000", "http://localhost:8000"])

# Serving over HTTPS (deploy/production.env.example sets them all). Behind a proxy that terminates TLS,
# ARENA_BEHIND_TLS_PROXY=1 trusts its X-Forwarded-Proto header: set it only when the proxy sets (and
# overwrites) that header on every request, or a client could claim HTTPS itself.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if env.bool("ARENA_BEHIND_TLS_PROXY", False) else None
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", False)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # health checks from the proxy or the container speak plain HTTP
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", 0, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", False)
SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", False)
CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", False)
# /metrics (Prometheus' text format) answers requests bearing this token; unset: 404 (core/metrics.py)
ARENA_METRICS_TOKEN = env.str("ARENA_METRICS_TOKEN") or ""

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI's files, served from /static/ (no CDN) at /api/docs/
    "channels",
    "arena",
    "lpp",
    "lambdastar",
    "markets",
    "tournaments.loebner",
    "tournaments.wager",
    "tables",
    "studies",
]

MIDDLEWARE = [
    "core.db.ConnectionReleaseMiddleware",  # first: after the response, this request's connection goes
    "core.metrics.RequestCountMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

# Content-Security-Policy on every response (django-csp): scripts only from the platform's own files (no
# inline script, no eval: the charts run Vega's expression interpreter), no plugins, no framing. Inline
# styles stay allowed: the chart libraries size their elements with them.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
            "builtins": ["core.templatetags.times"],  # {{ value|when }}: times in the reader's time zone
            "libraries": {"charts": "core.chart_tags"},  # the shared charts: {% load charts %}
        },
    },
]

# --- database -------------------------------------------------------------------------------
if DATABASE_URL:
    DATABASES = {"default": env.db_url("DATABASE_URL")}  # django-environ's parser, strict (config.env)
else:
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": DATA_DIR / "arena.sqlite3",
            # A file, not :memory:, so a separate daphne process in the browser tests sees it.
            "TEST": {"NAME": DATA_DIR / "test_arena.sqlite3"},
            "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE", "init_command": "PRAGMA journal_mode=WAL;"},
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- channels and tasks -----------------------------------------------------------------------
REDIS_URL = env.redis_url("REDIS_URL")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "core.channel_layer.RedisChannelLayer",  # channels_redis's, fewer round trips
            # no socket timeout; a command that met a connection Redis closed is retried (core.redis_options)
            "CONFIG": {"hosts": [layer_host(REDIS_URL)]},
        }
    }
    CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", REDIS_URL)
    CELERY_RESULT_BACKEND = env.str("CELERY_RESULT_BACKEND", REDIS_URL)
    if CELERY_BROKER_URL.startswith("redis://"):
        # kombu's Redis transport, repaired so a worker outlives a broker outage (core.broker)
        CELERY_BROKER_TRANSPORT = "core.broker:Transport"
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CELERY_BROKER_URL = "memory://"
    CELERY_RESULT_BACKEND = "cache+memory://"
    CELERY_BROKER_TRANSPORT_OPTIONS = {"polling_interval": 0.05}
# Embedded default: tasks run in-process (on a background thread, see core.dispatch).
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", not REDIS_URL)
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A worker whose broker is away keeps trying to reach it (every few seconds, without a limit) rather than
# exit after 100 attempts; a supervisor's restart (docs/operations/deployment.md) is the second line.
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_TASK_DEFAULT_QUEUE = "celery"
CELERY_TASK_ROUTES = {"lambdastar.tasks.*": {"queue": "lambdastar"}}
CELERY_TASK_TIME_LIMIT = 300
CELERY_TASK_SOFT_TIME_LIMIT = 240
CELERY_BEAT_SCHEDULE = {
    # the arena's sweep, with the steps the formats register (a Loebner round's half-time switch and end)
    "arena-sweep": {"task": "arena.tasks.conversations_sweep", "schedule": 5.0},
    "markets-sweep": {"task": "markets.tasks.games_sweep", "schedule": 5.0},
    "wager-start-due": {"task": "wager.tasks.interviews_start_due", "schedule": 5.0},
}
# The embedded default (tasks in-process) has no `celery beat`: daphne runs the schedule above itself
# on one thread (core.embedded_beat), so deadlines, settlements and scheduled starts survive a restart.
ARENA_EMBEDDED_BEAT = env.bool("ARENA_EMBEDDED_BEAT", True)
# daphne and the Celery workers freeze their start-up heap out of the cyclic collector (core.gcpolicy)
ARENA_GC_FREEZE = env.bool("ARENA_GC_FREEZE", True)

# --- auth, i18n, static -----------------------------------------------------------------------
# Sign-up's password rules: not like the username, at least 10 characters, not one of Django's list of
# 20,000 common passwords, not all digits, at least 5 different characters other than spaces.
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 10}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
    {"NAME": "arena.password_rules.CharacterVarietyValidator"},
]
# Log-ins and sign-ups (arena.services.logins): failed log-ins per client address and per username in a
# window of ARENA_LOGIN_LOCKOUT_S seconds from the first failure, past which that address, or that
# username, may not log in until the window ends; sign-up attempts per address per ARENA_SIGNUP_WINDOW_S.
ARENA_LOGIN_FAILURES_PER_ADDRESS = env.int("ARENA_LOGIN_FAILURES_PER_ADDRESS", 30, minimum=1, maximum=100_000)
ARENA_LOGIN_FAILURES_PER_ACCOUNT = env.int("ARENA_LOGIN_FAILURES_PER_ACCOUNT", 8, minimum=1, maximum=100_000)
ARENA_LOGIN_LOCKOUT_S = env.int("ARENA_LOGIN_LOCKOUT_S", 900, minimum=1, maximum=86_400)
ARENA_SIGNUP_PER_ADDRESS = env.int("ARENA_SIGNUP_PER_ADDRESS", 5, minimum=1, maximum=100_000)
ARENA_SIGNUP_WINDOW_S = env.int("ARENA_SIGNUP_WINDOW_S", 3600, minimum=1, maximum=86_400)
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
STATIC_URL = "static/"
# static/vendor/: the browser libraries from npm, kept in the repository (core/vendor.py), at /static/vendor/
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
# The platform serves /static/ itself (WhiteNoise, DEBUG on or off) unless a front server (nginx, a CDN)
# does it: SERVE_STATIC=false. WhiteNoise finds the files where they lie (the apps' static/, static/),
# indexed once at start (with DEBUG, looked up on every request: edits show at once); no
# collectstatic step. Cache-Control max-age 60 s (the names carry no hash). `collectstatic` still writes
# STATIC_ROOT, gzip- and Brotli-compressed, for a front server.
SERVE_STATIC = env.bool("SERVE_STATIC", True)
WHITENOISE_USE_FINDERS = True
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
if SERVE_STATIC:
    MIDDLEWARE.insert(
        MIDDLEWARE.index("django.middleware.security.SecurityMiddleware") + 1, "core.staticfiles.StaticFilesMiddleware"
    )

REST_FRAMEWORK = {
    # a token first: a request without credentials answers 401 with `WWW-Authenticate: Token` (the first
    # class's challenge); arena.api.auth takes the hashed API keys and, for older clients, DRF's tokens
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "arena.api.auth.ApiKeyAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_THROTTLE_CLASSES": ["arena.api.throttles.AddressThrottle", "arena.api.throttles.TokenThrottle"],
    "EXCEPTION_HANDLER": "arena.api.errors.exception_handler",
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 100,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
}
# The entrants' API's OpenAPI 3 schema, served at /api/schema/ (and /api/v1/schema/), browsable at /api/docs/.
SPECTACULAR_SETTINGS = {
    "TITLE": "Turing Arena: the entrants' API",
    "DESCRIPTION": "Register entries, probe and rehearse them, read their health and call log, and answer judges in "
    "pull mode. Authenticate with `Authorization: Token <key>` (create keys on the API keys page, "
    '/entrant/keys/). Every 4xx answer has one shape, `{"error": <message>, "code": <code>, '
    '"fields"?: {<field>: [<message>]}}`; a missing or bad token answers 401, too many requests '
    "429 with `Retry-After`.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "arena.api.schema.long_poll_path",
        "arena.api.schema.common_answers",
    ],
}
# Throttles of the APIs (DRF's, counted in the cache: Redis in services mode): requests per window of
# ARENA_API_RATE_WINDOW_S seconds, per token (or session user) and per client address. A long poll
# counts as one request, however long it waits.
ARENA_API_RATE_WINDOW_S = env.int("ARENA_API_RATE_WINDOW_S", 60, minimum=1, maximum=86_400)
ARENA_API_RATE_PER_TOKEN = env.int("ARENA_API_RATE_PER_TOKEN", 600, minimum=1, maximum=1_000_000)
ARENA_API_RATE_PER_ADDRESS = env.int("ARENA_API_RATE_PER_ADDRESS", 1200, minimum=1, maximum=1_000_000)
# Entrants sign themselves up at /entrant/signup/; with approval on, an organiser approves each one in
# the admin (Arena › Entrant applications) before they may register entries.
ARENA_ENTRANT_APPROVAL = env.bool("ARENA_ENTRANT_APPROVAL", False)
# Rehearsals (an entrant's practice interrogation): its length, and the scripted judge's pause between
# an answer and its next question.
ARENA_REHEARSAL_TIME_LIMIT_S = env.int("ARENA_REHEARSAL_TIME_LIMIT_S", 180, minimum=10, maximum=3600)
ARENA_REHEARSAL_PAUSE_S = env.float("ARENA_REHEARSAL_PAUSE_S", 2.0, minimum=0.0, maximum=60.0)

# --- the platform's own knobs -----------------------------------------------------------------
# At most 20,000: the longest websocket frame the consoles read (core.consumers.max_frame_chars) stays
# below daphne's 1 MiB, so a frame too long gets its error frame rather than a closed socket.
ARENA_MAX_MESSAGE_CHARS = env.int("ARENA_MAX_MESSAGE_CHARS", 1000, minimum=1, maximum=20_000)
# Threads per daphne process for chat messages' appends alone (core.consumers.db_message): a message never
# waits behind pages' connects, state reads or lobby joins in the shared pool.
ARENA_MESSAGE_THREADS = env.int("ARENA_MESSAGE_THREADS", 4, minimum=1, maximum=64)
# A (re)connecting console is sent a conversation's most recent messages only, and how many earlier
# ones there are (the page links the transcript for those): a long conversation's reload stays small.
ARENA_STATE_MESSAGES = env.int("ARENA_STATE_MESSAGES", 500, minimum=1, maximum=100_000)
# A transcript page replays a conversation key by key from at most this many stored keystrokes (about
# 20 bytes each in the page); one with more replays message by message.
ARENA_REPLAY_MAX_KEYS = env.int("ARENA_REPLAY_MAX_KEYS", 20_000, minimum=0, maximum=1_000_000)
ARENA_DEFAULT_TIME_LIMIT_S = env.int("ARENA_DEFAULT_TIME_LIMIT_S", 300, minimum=10)
ARENA_BOT_REPLY_MAX_CHARS = env.int("ARENA_BOT_REPLY_MAX_CHARS", 1000, minimum=1)
ARENA_BOT_RETRIES = env.int("ARENA_BOT_RETRIES", 2, minimum=0)
ARENA_BOT_RETRY_BASE_S = env.float("ARENA_BOT_RETRY_BASE_S", 1.0, minimum=0.0)
ARENA_BOT_BREAKER_FAILURES = env.int("ARENA_BOT_BREAKER_FAILURES", 5, minimum=1)
ARENA_BOT_BREAKER_COOLDOWN_S = env.int("ARENA_BOT_BREAKER_COOLDOWN_S", 60, minimum=1)
ARENA_PULL_MAX_WAIT_S = env.float("ARENA_PULL_MAX_WAIT_S", 25.0, minimum=0.0, maximum=300.0)
# studies: the outlier test re-runs this long after a verdict (once, however many verdicts come meanwhile)
STUDIES_FLAG_DELAY_S = env.float("STUDIES_FLAG_DELAY_S", 30.0, minimum=0.0, maximum=3600.0)
# /play/: new participants one client address, and one browser (its device cookie), may start per window
STUDIES_PLAY_NEW_PER_ADDRESS = env.int("STUDIES_PLAY_NEW_PER_ADDRESS", 20, minimum=1, maximum=1_000_000)
STUDIES_PLAY_NEW_PER_DEVICE = env.int("STUDIES_PLAY_NEW_PER_DEVICE", 3, minimum=1, maximum=1_000_000)
STUDIES_PLAY_NEW_WINDOW_S = env.int("STUDIES_PLAY_NEW_WINDOW_S", 3600, minimum=1, maximum=30 * 86400)
# crowd markets on conversations: spectators see each message this long after the judge
MARKETS_SPECTATOR_DELAY_S = env.float("MARKETS_SPECTATOR_DELAY_S", 60.0, minimum=0.0, maximum=3600.0)
# A Celery queue of its own for the memory-hungry engines (aiml, learner): "bots" with a worker
# started as `celery -A config worker -Q bots`; empty keeps them on the default queue.
ARENA_BOTS_QUEUE = env.str("ARENA_BOTS_QUEUE", "")

# --- outbound calls of engines (webhook, llm) -------------------------------------------------
# Engines that call an entrant's URL reach public addresses only: never loopback, private, link-local
# (cloud metadata), shared, multicast or reserved ones, checked after DNS on every address and at
# every connection (bots.netpolicy). Allow ranges here, comma-separated CIDRs, e.g.
# "10.0.5.0/24,fd00:5::/64" for an LLM server on the organisers' own network; default none.
ARENA_OUTBOUND_ALLOW = env.cidrs("ARENA_OUTBOUND_ALLOW", [])

# Λ* experiments: the most episodes × types × runs one owner may have queued or running
LAMBDASTAR_QUOTA_EPISODES = env.int("LAMBDASTAR_QUOTA_EPISODES", 5_000_000, minimum=1)

# --- transcript seals (arena.ConversationSeal, core.hashchain) -------------------------------------
# The Ed25519 key that signs each conversation's seal when its interrogation ends: base64 of its 32
# bytes, or PEM. Without one, the embedded default (or DEBUG) generates a key once into ARENA_DATA_DIR
# (mode 0600), so `make run` needs nothing; services mode with DEBUG off refuses to start (arena.E004).
ARENA_SIGNING_KEY = env.ed25519_private_key("ARENA_SIGNING_KEY")
ARENA_SIGNING_KEY_FILE = DATA_DIR / "transcript-signing-key.pem" if LOCAL_KEYS and not ARENA_SIGNING_KEY else None
# Public keys of earlier signing keys (comma-separated base64), still published so that their seals verify.
ARENA_SIGNING_RETIRED_KEYS = env.ed25519_public_keys("ARENA_SIGNING_RETIRED_KEYS")

# --- hardening: bounded long polls, rate limits -------------------------------------
# Pull mode's long poll (GET /api/v1/entries/<id>/pending/?wait=): the database is checked every
# ARENA_PULL_POLL_S seconds, holding no thread or connection in between (arena.services.pull).
ARENA_PULL_POLL_S = env.float("ARENA_PULL_POLL_S", 0.5, minimum=0.05, maximum=10.0)
# Websocket frames (core.ratelimit), per category: "message" (messages, questions, answers, trades,
# verdicts, state requests) and "typing" (typing signals, keystroke frames). Per socket, a token
# bucket of _BURST frames refilled at _PER_S a second; per user, all sockets of all processes
# together, _PER_USER frames in each window of ARENA_RATE_WINDOW_S seconds (Django's cache: Redis in
# services mode). A frame past either limit gets one "rate_limited" error frame and is dropped.
ARENA_RATE_WINDOW_S = env.int("ARENA_RATE_WINDOW_S", 60, minimum=1, maximum=3600)
ARENA_RATE_MESSAGE_BURST = env.int("ARENA_RATE_MESSAGE_BURST", 20, minimum=1, maximum=10_000)
ARENA_RATE_MESSAGE_PER_S = env.float("ARENA_RATE_MESSAGE_PER_S", 2.0, minimum=0.01, maximum=1000.0)
ARENA_RATE_MESSAGE_PER_USER = env.int("ARENA_RATE_MESSAGE_PER_USER", 120, minimum=1, maximum=1_000_000)
ARENA_RATE_TYPING_BURST = env.int("ARENA_RATE_TYPING_BURST", 100, minimum=1, maximum=10_000)
ARENA_RATE_TYPING_PER_S = env.float("ARENA_RATE_TYPING_PER_S", 30.0, minimum=0.01, maximum=1000.0)
ARENA_RATE_TYPING_PER_USER = env.int("ARENA_RATE_TYPING_PER_USER", 3000, minimum=1, maximum=1_000_000)
# Anonymous sockets (spectators; a study's players without an account) have no user: all those of one
# client address share _PER_ADDRESS frames per window (a connect counts as a message frame). A lab
# whose participants play from one address raises these.
ARENA_RATE_MESSAGE_PER_ADDRESS = env.int("ARENA_RATE_MESSAGE_PER_ADDRESS", 600, minimum=1, maximum=1_000_000)
ARENA_RATE_TYPING_PER_ADDRESS = env.int("ARENA_RATE_TYPING_PER_ADDRESS", 30_000, minimum=1, maximum=1_000_000)
# The cache holds the per-user counters: Redis (shared by every process) in services mode, this
# process's memory in the embedded default (one process).
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "arena",
            "OPTIONS": cache_options(),  # a connection Redis closed is replaced, not failed (core.redis_options)
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "arena"}}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", "WARNING")},
    "loggers": {"arena": {"level": env.str("LOG_LEVEL", "INFO"), "handlers": ["console"], "propagate": False}},
}
