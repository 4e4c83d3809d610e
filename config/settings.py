"""Settings for the arena service, read from the environment with defaults that work locally."""

from __future__ import annotations

import secrets
import sys
from pathlib import Path
from typing import Any

import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured
from kombu import Queue

from arena.builtin import BUILTIN_BOTS
from botclient import limits as bot_limits
from common.database import connect_timeout, database_settings, process_kind
from common.env import env_bool, env_float, env_int, env_list, env_str
from common.renamed_settings import env_name as renamed_env
from common.services import database_tag
from common.task_names import OFF_THE_PLAY_QUEUE, TaskName

# Importing the settings does no I/O: `manage.py prepare_services` (run first by scripts/run.sh and
# scripts/test.sh) creates the database, probes Redis and tells the settings of any fallback through
# ARENA_DATABASE_FALLBACK / ARENA_REDIS_FALLBACK.
BASE_DIR = Path(__file__).resolve().parent.parent

# Lets the admin and form classes take their model as a type argument (ModelAdmin[Match]) at run time.
django_stubs_ext.monkeypatch()

# "development" (the default, `make run`) or "production" (docs/deploy.md).
PROFILE = env_str("ARENA_PROFILE", "development")
if PROFILE not in {"development", "production"}:
    raise ImproperlyConfigured(f"ARENA_PROFILE must be development or production, got {PROFILE!r}")
PRODUCTION = PROFILE == "production"

# Commands that sign nothing lasting run with a throwaway key; anything serving needs a real one.
_KEYLESS_COMMANDS = {"makemigrations", "spectacular", "prepare_services", "showmigrations", "help", "check"}


def _keyless_tooling() -> bool:
    if "pytest" in sys.modules:
        return True
    # The type checker's Django plugin loads the settings to learn the models; it signs nothing.
    if "mypy_django_plugin" in sys.modules:
        return True
    return Path(sys.argv[0]).name == "manage.py" and len(sys.argv) > 1 and sys.argv[1] in _KEYLESS_COMMANDS


SECRET_KEY = env_str("SECRET_KEY", "")
if not SECRET_KEY:
    if PRODUCTION or not _keyless_tooling():
        raise ImproperlyConfigured(
            "SECRET_KEY is not set: export SECRET_KEY (50+ random characters); "
            "`make run` makes one on its first run and keeps it in var/secret_key"
        )
    SECRET_KEY = secrets.token_urlsafe(50)  # random per process: nothing signed with it outlives the process
DEBUG = env_bool("DEBUG", False) and not PRODUCTION
_DEV_HOSTS = ["127.0.0.1", "localhost", "[::1]", "testserver"]
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", [] if PRODUCTION else _DEV_HOSTS)
if PRODUCTION and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ARENA_PROFILE=production needs ALLOWED_HOSTS (comma-separated host names)")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

if PRODUCTION:
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = env_bool("ARENA_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = env_int("ARENA_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("ARENA_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("ARENA_HSTS_PRELOAD", True)
# Behind a TLS-terminating reverse proxy that sets X-Forwarded-Proto (docs/deploy.md).
if env_bool("ARENA_BEHIND_PROXY", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# Refuse the embedded fallbacks (used by the test suite, which must run on the real services).
REQUIRE_SERVICES = env_bool("ARENA_REQUIRE_SERVICES", False)
DATABASE_FALLBACK = env_bool("ARENA_DATABASE_FALLBACK", False)
REDIS_FALLBACK = env_bool("ARENA_REDIS_FALLBACK", False)
for _what, _fell_back in (("PostgreSQL", DATABASE_FALLBACK), ("Redis", REDIS_FALLBACK)):
    if _fell_back and (REQUIRE_SERVICES or PRODUCTION):
        raise ImproperlyConfigured(f"{_what} is required but unreachable (its fallback was chosen)")

# --- Database ---------------------------------------------------------------------------------
# common/database.py: DATABASE_URL read by dj-database-url; each kind of process gets its bounds and
# timeouts (web processes: a connection pool, ARENA_DB_POOL_*; workers and beat: one connection each).
DATABASE_URL = env_str("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/arena")
PROCESS_KIND = process_kind()
DATABASES: dict[str, dict[str, Any]]
if DATABASE_FALLBACK and not DATABASE_URL.startswith("sqlite:///"):
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(BASE_DIR / "var" / "arena.sqlite3"),
        }
    }
else:
    DATABASES = {"default": database_settings(DATABASE_URL, PROCESS_KIND)}
# Seconds a connection attempt may take: common/outages.py starts no retry that could not end by its deadline.
ARENA_DB_CONNECT_TIMEOUT = connect_timeout()

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: Celery broker and cache -----------------------------------------------------------
REDIS_URL = env_str("REDIS_URL", "redis://127.0.0.1:6379/0")
# A Redis that is down or unreachable answers within these (then 503, config/outages.py), never hangs a request.
ARENA_REDIS_CONNECT_TIMEOUT = env_float("ARENA_REDIS_CONNECT_TIMEOUT", 2.0)
ARENA_REDIS_TIMEOUT = env_float("ARENA_REDIS_TIMEOUT", 5.0)

_cache_prefix = database_tag(DATABASES["default"]["NAME"])
CACHES: dict[str, dict[str, Any]]
if REDIS_FALLBACK:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            # One Redis is shared by every database the service may point at.
            "KEY_PREFIX": f"arena:{_cache_prefix}",
            "OPTIONS": {
                "socket_connect_timeout": ARENA_REDIS_CONNECT_TIMEOUT,
                "socket_timeout": ARENA_REDIS_TIMEOUT,
            },
        }
    }

CELERY_BROKER_URL = REDIS_URL
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ALWAYS_EAGER = REDIS_FALLBACK
CELERY_TASK_EAGER_PROPAGATES = False
CELERY_TASK_DEFAULT_QUEUE = env_str("ARENA_QUEUE", "arena")
# Beat's periodic tasks (sweepers, ticks) wait on a queue of their own, never behind a backlog of
# matches; a worker started without -Q consumes both queues listed here.
ARENA_PERIODIC_QUEUE = env_str("ARENA_PERIODIC_QUEUE", f"{CELERY_TASK_DEFAULT_QUEUE}-periodic")
CELERY_TASK_QUEUES = (Queue(CELERY_TASK_DEFAULT_QUEUE), Queue(ARENA_PERIODIC_QUEUE))
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env_int("ARENA_VISIBILITY_TIMEOUT", 3600),
    "socket_connect_timeout": ARENA_REDIS_CONNECT_TIMEOUT,
    "socket_timeout": ARENA_REDIS_TIMEOUT,
}
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
# Remote control (`celery inspect`, `celery control`) reaches every worker on the broker through a
# broadcast queue that expires, whose deadline kombu keeps in one key shared by them all. A benchmark's
# own worker turns it off (bench/trees.py): it neither answers the service's commands nor leaves that
# key behind.
CELERY_WORKER_ENABLE_REMOTE_CONTROL = env_bool("ARENA_WORKER_REMOTE_CONTROL", True)
# Celery's Django fixup closes every database connection before and after every task unless this is
# set, so each task (most of a batch's find their match played and end after one SELECT) paid for a
# new connection. With it, a worker process keeps its one connection (DATABASE_CONN_MAX_AGE, health
# checks: config/celery.py calls close_old_connections around each task; never a pool, see
# common/database.py); the fixup's own close comes only every this many tasks.
CELERY_DB_REUSE_MAX = 1000
CELERY_TIMEZONE = "UTC"

# --- Arena ------------------------------------------------------------------------------------
# A running match whose lease has passed is presumed abandoned by a dead worker and retried.
ARENA_MATCH_LEASE_SECONDS = env_float("ARENA_MATCH_LEASE_SECONDS", 120.0)
ARENA_MATCH_MAX_ATTEMPTS = env_int("ARENA_MATCH_MAX_ATTEMPTS", 3)
# A play task claims, plays and commits up to this many queued built-in bot matches at once.
ARENA_CLAIM_BATCH = env_int("ARENA_CLAIM_BATCH", 8)
# A lease of queued work (one message for many built-in bot matches) takes up to this many at once,
# fewer where the last games were slow (results.batches.lease_size).
ARENA_LEASE_BATCH = env_int("ARENA_LEASE_BATCH", 128)
# ... but starts no other match once this long has passed (its results wait for the whole batch).
ARENA_CLAIM_BATCH_SECONDS = env_float("ARENA_CLAIM_BATCH_SECONDS", 1.0)
# A queued match whose message may have been lost is re-sent after this long.
ARENA_QUEUED_RESEND_SECONDS = env_float("ARENA_QUEUED_RESEND_SECONDS", 60.0)
ARENA_SWEEP_SECONDS = env_float("ARENA_SWEEP_SECONDS", 10.0)
ARENA_MATCHMAKING_SECONDS = env_float("ARENA_MATCHMAKING_SECONDS", 2.0)
# Rating window of the matchmaker: starts narrow and widens with time spent waiting.
ARENA_WINDOW_BASE = env_float("ARENA_WINDOW_BASE", 100.0)
ARENA_WINDOW_PER_SECOND = env_float("ARENA_WINDOW_PER_SECOND", 25.0)
# Pause before each bot move, so that people can follow a match live; 0 plays at full speed.
ARENA_BOT_MOVE_DELAY_SECONDS = env_float("ARENA_BOT_MOVE_DELAY_SECONDS", 0.0)

# --- Submitted bots and tournaments -----------------------------------------------------------
# Failure policy for sandboxed and hosted bots: per-move limit, time bank per match, start limit.
ARENA_BOT_MOVE_MS = env_int("ARENA_BOT_MOVE_MS", bot_limits.MOVE_MS)
ARENA_BOT_BANK_MS = env_int("ARENA_BOT_BANK_MS", bot_limits.BANK_MS)
ARENA_BOT_START_MS = env_int("ARENA_BOT_START_MS", bot_limits.START_MS)
# Uploaded bots (one .py or .js file, or a .zip holding main.py) are stored in the database.
ARENA_BOT_UPLOAD_MAX_BYTES = env_int("ARENA_BOT_UPLOAD_MAX_BYTES", 1024 * 1024)
# Hosted bots on loopback or private addresses: for local development only.
ARENA_BOT_ALLOW_PRIVATE_URLS = env_bool("ARENA_BOT_ALLOW_PRIVATE_URLS", False)
ARENA_BOT_VALIDATION_GAMES = env_int("ARENA_BOT_VALIDATION_GAMES", 2)
# Most deals one comparison of two versions may ask for (each deal: every seat, both versions).
ARENA_COMPARE_MAX_DEALS = env_int("ARENA_COMPARE_MAX_DEALS", 10, minimum=1, maximum=50)
# Deals of one comparison in flight at once, each a task of its own: the workers share them out; each
# deal that comes in sends the next until the verdict is settled (submissions/comparing.py).
ARENA_COMPARE_PARALLEL_DEALS = env_int("ARENA_COMPARE_PARALLEL_DEALS", 4, minimum=1)
# A bot forfeiting in at least this share of its last arena matches is suspended from the arena.
ARENA_BOT_SUSPEND_WINDOW = env_int("ARENA_BOT_SUSPEND_WINDOW", 20)
ARENA_BOT_SUSPEND_RATIO = env_float("ARENA_BOT_SUSPEND_RATIO", 0.25)
ARENA_SANDBOX_STATE_DIR = env_str("ARENA_SANDBOX_STATE_DIR", "/run/arena-sandbox")
ARENA_SANDBOX_BASE_UID = env_int("ARENA_SANDBOX_BASE_UID", 62000)
ARENA_SANDBOX_SLOTS = env_int("ARENA_SANDBOX_SLOTS", 16)
ARENA_SANDBOX_BWRAP = env_str("ARENA_SANDBOX_BWRAP", "/usr/bin/bwrap")
# The server's own part of starting a sandboxed bot (a free slot, staging its files, starting bubblewrap),
# apart from the bot's ARENA_BOT_START_MS: past it the game is given back and played later, nobody charged.
ARENA_SANDBOX_START_MS = env_int("ARENA_SANDBOX_START_MS", 20_000)
# A pause added to every sandbox start: a slow machine on demand, for drills and tests only (0 in production).
ARENA_SANDBOX_START_DELAY_MS = env_int("ARENA_SANDBOX_START_DELAY_MS", 0)
# Unpacked uploads, one directory per bundle digest, shared by the matches of a worker machine.
ARENA_BOT_CACHE_DIR = env_str("ARENA_BOT_CACHE_DIR", str(BASE_DIR / "var" / "bot-cache"))
ARENA_TOURNAMENT_MAX_GAMES = env_int("ARENA_TOURNAMENT_MAX_GAMES", 2000)
ARENA_TOURNAMENT_MAX_ENTRIES = env_int("ARENA_TOURNAMENT_MAX_ENTRIES", 64)
ARENA_TOURNAMENT_TICK_SECONDS = env_float("ARENA_TOURNAMENT_TICK_SECONDS", 5.0)

# People at the table: seconds per decision, timeouts before a person forfeits.
ARENA_TURN_SECONDS = env_float("ARENA_TURN_SECONDS", 60.0)
ARENA_MAX_TIMEOUTS = env_int("ARENA_MAX_TIMEOUTS", 3)
# House bots (matchmaking/house.py), one family for both arena pools: the built-in ladder that fills
# the empty seats, and how long a bot / a person waits without a full table before it does.
# The old names (common/renamed_settings.py) still work for this release, with a warning.
# The ladder is ordered by strength: by default every built-in bot (arena/builtin.py), whose noisy greedy
# rungs (greedy with P% random moves) fill the gap of about 550 Elo between random and greedy.
ARENA_HOUSE_LADDER = env_list(renamed_env("ARENA_HOUSE_LADDER"), list(BUILTIN_BOTS))
ARENA_HOUSE_AFTER_SECONDS_BOTS = env_float(renamed_env("ARENA_HOUSE_AFTER_SECONDS_BOTS"), 10.0)
ARENA_HOUSE_AFTER_SECONDS_PEOPLE = env_float(renamed_env("ARENA_HOUSE_AFTER_SECONDS_PEOPLE"), 30.0)
# A bot with fewer rated games (or a new version still provisional) plays house bots only: its placement.
ARENA_BOT_PLACEMENT_GAMES = env_int("ARENA_BOT_PLACEMENT_GAMES", 10)
ARENA_TURN_SWEEP_SECONDS = env_float("ARENA_TURN_SWEEP_SECONDS", 5.0)
# Friendly tables one account may host at once, waiting for guests or still playing (409 past it).
ARENA_MAX_OPEN_TABLES = env_int("ARENA_MAX_OPEN_TABLES", 5)

# --- Request limits and retries (docs/api.md) --------------------------------------------------
# The Retry-After of a 503 answered while PostgreSQL or Redis is away (config/outages.py).
ARENA_OUTAGE_RETRY_AFTER = env_int("ARENA_OUTAGE_RETRY_AFTER", 5)
# Bodies larger than this answer 413 (bot files are uploaded as multipart and have their own limit).
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("ARENA_MAX_BODY_BYTES", 2621440)
ARENA_JSON_MAX_DEPTH = env_int("ARENA_JSON_MAX_DEPTH", 32)
ARENA_IDEMPOTENCY_KEEP_HOURS = env_float("ARENA_IDEMPOTENCY_KEEP_HOURS", 24.0, minimum=24.0)
ARENA_IDEMPOTENCY_PURGE_SECONDS = env_float("ARENA_IDEMPOTENCY_PURGE_SECONDS", 3600.0)

# Wrong passwords (token endpoint and web login) per account and per client address, and sign-ups
# per address, in fixed windows; past the limit every attempt answers 429 with Retry-After.
ARENA_LOGIN_FAILURES_PER_ACCOUNT = env_int("ARENA_LOGIN_FAILURES_PER_ACCOUNT", 5)
ARENA_LOGIN_FAILURES_PER_ADDRESS = env_int("ARENA_LOGIN_FAILURES_PER_ADDRESS", 20)
ARENA_LOGIN_WINDOW_SECONDS = env_int("ARENA_LOGIN_WINDOW_SECONDS", 900)
ARENA_SIGNUPS_PER_ADDRESS = env_int("ARENA_SIGNUPS_PER_ADDRESS", 5)
ARENA_SIGNUP_WINDOW_SECONDS = env_int("ARENA_SIGNUP_WINDOW_SECONDS", 3600)


def _every(seconds: float, task: TaskName) -> dict[str, Any]:
    """A periodic task that expires after its interval: ticks never pile up while no worker runs."""
    return {"task": task.value, "schedule": seconds, "options": {"expires": seconds}}


CELERY_BEAT_SCHEDULE = {
    "idempotency-purge": _every(ARENA_IDEMPOTENCY_PURGE_SECONDS, TaskName.PURGE_IDEMPOTENCY_KEYS),
    "tournaments-tick": _every(ARENA_TOURNAMENT_TICK_SECONDS, TaskName.TOURNAMENT_TICK),
    "submissions-sweep-validations": _every(ARENA_SWEEP_SECONDS, TaskName.SWEEP_VALIDATIONS),
    "play-sweep-turn-clocks": _every(ARENA_TURN_SWEEP_SECONDS, TaskName.SWEEP_TURN_CLOCKS),
    "arena-sweep-stuck-matches": _every(ARENA_SWEEP_SECONDS, TaskName.SWEEP_STUCK_MATCHES),
    "ratings-catch-up-leaderboards": _every(ARENA_SWEEP_SECONDS, TaskName.CATCH_UP_LEADERBOARDS),
    "arena-matchmaking-tick": _every(ARENA_MATCHMAKING_SECONDS, TaskName.MATCHMAKING_TICK),
}
# Beat's tasks and the leaderboard rebuild go to the periodic queue, whoever sends them.
CELERY_TASK_ROUTES = {task.value: {"queue": ARENA_PERIODIC_QUEUE} for task in OFF_THE_PLAY_QUEUE}

# --- Django -----------------------------------------------------------------------------------
INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "arena",
    "ratings",
    "results",
    "submissions",
    "play",
    "tournaments",
    "matchmaking",
    "web",
    "idempotency",
    "accounts",
]

MIDDLEWARE = [
    # PostgreSQL or Redis away: 503 with Retry-After (JSON under /api/, a short page elsewhere), never 500.
    "config.outages.AnswerOutagesWith503",
    "django.middleware.security.SecurityMiddleware",
    # Serves the admin's and the API docs' assets from this server (no CDN, works offline).
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # Accept-Language "no" and "nn" mean the site's Norwegian, "nb".
    "web.middleware.NorwegianMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    # A NUL character in a query string or a page's form answers 400 (config.middleware).
    "config.middleware.RefuseNulCharacters",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Unsafe methods run in one transaction holding their Idempotency-Key answer (GETs run without one).
    "idempotency.middleware.IdempotentUnsafeRequests",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

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
                "web.context.playing",
                "web.context.languages",
            ]
        },
    }
]

# Every password login (token endpoint, web login, admin login) goes through the lockout (accounts.backends).
AUTHENTICATION_BACKENDS = ["accounts.backends.ThrottledModelBackend"]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("fr", "Français"), ("nb", "Norsk bokmål")]
LOGIN_URL = "web:login"
LOGIN_REDIRECT_URL = "web:home"
LOGOUT_REDIRECT_URL = "web:home"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"  # made by prepare_services
# Without collectstatic the files are found in the apps directly.
WHITENOISE_USE_FINDERS = True

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_PARSER_CLASSES": [
        "common.limits.DepthLimitedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_THROTTLE_CLASSES": ["rest_framework.throttling.ScopedRateThrottle"],
    "DEFAULT_THROTTLE_RATES": {
        "match-create": env_str("ARENA_THROTTLE_MATCH_CREATE", "600/hour"),
        "arena-entry": env_str("ARENA_THROTTLE_ARENA_ENTRY", "300/hour"),
        "play-action": env_str("ARENA_THROTTLE_PLAY_ACTION", "3600/hour"),
        "bot-upload": env_str("ARENA_THROTTLE_BOT_UPLOAD", "60/hour"),
        "bot-compare": env_str("ARENA_THROTTLE_BOT_COMPARE", "20/hour"),
        "bot-edit": env_str("ARENA_THROTTLE_BOT_EDIT", "600/hour"),
        "tournament": env_str("ARENA_THROTTLE_TOURNAMENT", "120/hour"),
        # Opening, accepting and declining friendly tables, and resigning (each may start or end a match).
        "table": env_str("ARENA_THROTTLE_TABLE", "120/hour"),
        "resign": env_str("ARENA_THROTTLE_RESIGN", "120/hour"),
    },
    "EXCEPTION_HANDLER": "config.errors.json_exception_handler",
    # Trusted proxies in front (docs/deploy.md): the client address is the X-Forwarded-For hop they appended.
    "NUM_PROXIES": env_int("ARENA_NUM_PROXIES", 0),
}

SPECTACULAR_SETTINGS = {
    "TITLE": "La Part du Chef arena API",
    "DESCRIPTION": "Players, rated matches, multiplayer Elo leaderboards and the bot arena.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI and ReDoc assets are served from this server, so the docs work offline.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "config.schema_errors.add_error_responses",
    ],
    "ENUM_NAME_OVERRIDES": {
        "PlayerKindEnum": "arena.models.Player.Kind",
        "MatchKindEnum": "arena.models.Match.Kind",
        "MatchStatusEnum": "arena.models.Match.Status",
        "BotVersionStatusEnum": "submissions.models.BotVersion.Status",
        "BotStatusEnum": "submissions.models.BOT_STATUSES",
        "TournamentStatusEnum": "tournaments.models.Tournament.Status",
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # The level applies to the handler too: Django's own loggers (django.request's 4xx warnings) pass
    # their records up past the root logger's level.
    "handlers": {"console": {"class": "logging.StreamHandler", "level": env_str("LOG_LEVEL", "WARNING")}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "WARNING")},
}
