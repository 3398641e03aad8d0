"""Settings for clubsite. Everything comes from the environment, with development defaults."""

from pathlib import Path

import environ
from celery.schedules import crontab

from clubsite.kit.ip import trusted_proxies

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env(
    DEBUG=(bool, False),
    ALLOWED_HOSTS=(list, ["127.0.0.1", "localhost"]),
    SECURE=(bool, None),
)
env.read_env(BASE_DIR / ".env") if (BASE_DIR / ".env").exists() else None

DEBUG = env("DEBUG")
# A development key only when DEBUG is on; production must set SECRET_KEY.
SECRET_KEY = env("SECRET_KEY", default="dev-insecure-key-only-for-local-use" if DEBUG else None)
if not SECRET_KEY:
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured("Set SECRET_KEY (or DEBUG=1 for local development).")
ALLOWED_HOSTS = env("ALLOWED_HOSTS")
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "allauth",
    "allauth.account",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_filters",
    "crispy_forms",
    "crispy_bootstrap5",
    "bootstrap",
    "clubsite.kit",
    "players",
    "rulebooks",
    "events",
    "events.play",
    "ratings",
    "outbox",
    "wordjudge",
    "money",
    "clubs",
]

MIDDLEWARE = [
    # First: a body over MAX_REQUEST_BYTES is refused (413) before anything reads it.
    "clubsite.kit.middleware.RequestSizeLimit",
    # A view failing because the database does not answer gets a 503 page, not a server error.
    "clubsite.kit.middleware.DatabaseUnavailable",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "csp.middleware.CSPMiddleware",
]

# The largest request body the site reads: a little above its largest upload (a word list for the judge, at most
# 20 MB; bank statements and rating files, 5 MB; tsh files, 2 MB), so a 1 GB body is refused at once rather than
# written to disk. The proxy in front refuses larger bodies before they reach the site (README: production).
MAX_REQUEST_BYTES = env.int("MAX_REQUEST_BYTES", default=21 * 1024 * 1024)
# Form fields other than files, together (Django's default): the longest texts people type are 20,000 characters.
DATA_UPLOAD_MAX_MEMORY_SIZE = env.int("DATA_UPLOAD_MAX_MEMORY_SIZE", default=int(2.5 * 1024 * 1024))
# Every upload the site takes fits under MAX_REQUEST_BYTES: it is kept in memory, never in a temporary file.
FILE_UPLOAD_MAX_MEMORY_SIZE = MAX_REQUEST_BYTES

ROOT_URLCONF = "clubsite.urls"
WSGI_APPLICATION = "clubsite.wsgi.application"

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
                "clubsite.context_processors.site",
            ],
        },
    },
]

DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
# Persistent connections (CONN_MAX_AGE, e.g. DATABASE_URL=…?CONN_MAX_AGE=600) are checked before a request
# reuses one: a database restarted between requests costs a reconnect, not a server error.
DATABASES["default"].setdefault("CONN_HEALTH_CHECKS", True)
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Persistent unless the URL says otherwise (?conn_max_age=0): a new PostgreSQL connection per request costs
    # both sides more CPU than a whole registration.
    DATABASES["default"].setdefault("CONN_MAX_AGE", 60)
    # The site's queries are short; PostgreSQL's JIT compiler costs them more than it saves. Reading a page at random
    # costs little more than in order on the solid-state storage any current server has (the default, 4, is for
    # spinning disks): at the default, a member's 252 entries were joined by scanning every event and hashing every
    # category (20 ms), not looked up by index (3 ms).
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("options", "-c jit=off -c random_page_cost=1.1")
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The cache holds the log-in lockout counters and other rate limits, so it must be shared by every
# worker process: Redis when CACHE_URL (or REDIS_URL) is set, otherwise a table in the database
# (created by the players migrations). Never per-process memory.
_CACHE_URL = env("CACHE_URL", default="") or env("REDIS_URL", default="")
if _CACHE_URL:
    CACHES = {"default": env.cache_url_config(_CACHE_URL)}
    if CACHES["default"]["BACKEND"] == "django.core.cache.backends.redis.RedisCache":
        CACHES["default"]["BACKEND"] = "clubsite.kit.cache.RedisCache"  # keeps its client (clubsite/kit/cache.py)
    # Sessions read from the cache and written through to the database: every signed-in request reads its
    # session, and at the venue that is a hundred phones a second; none is lost when the cache restarts.
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "clubsite_cache",
            # Room for many counters: culling must not forget a lockout during an attack.
            "OPTIONS": {"MAX_ENTRIES": 100_000},
        }
    }

AUTH_USER_MODEL = "players.User"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]

LANGUAGE_CODE = "en-gb"
TIME_ZONE = env("TIME_ZONE", default="Asia/Singapore")
USE_I18N = True
USE_TZ = True
CURRENCY = env("CURRENCY", default="SGD")
# The association (the tenant) whose money the money app keeps, named by its model label: money reads it through
# money.association, never by importing the app that defines it.
ASSOCIATION_MODEL = "players.Association"
# Card payments through Stripe Checkout, offered only when both keys are set: the secret API key and the
# webhook endpoint's signing secret (whsec_…) for /money/stripe/webhook/. STRIPE_API_BASE sends the API calls
# elsewhere (a stand-in server in tests); empty means Stripe's own.
STRIPE_SECRET_KEY = env("STRIPE_SECRET_KEY", default="")
STRIPE_WEBHOOK_SECRET = env("STRIPE_WEBHOOK_SECRET", default="")
STRIPE_API_BASE = env("STRIPE_API_BASE", default="").rstrip("/")
# The association's name as members know it: page titles, the admin header and every email.
SITE_NAME = env("SITE_NAME", default="Scrabble Association")
# A name for the deployed code (a commit, a version), so pages a browser keeps are fetched anew after a release
# (clubsite/kit/conditional.py); without one, the modification times of the site's files stand for it.
RELEASE = env("RELEASE", default="")


def _default_site_url() -> str:
    """What `make run` serves in development; otherwise the first of ALLOWED_HOSTS (https unless SECURE=0)."""
    if DEBUG:
        return "http://127.0.0.1:8000"
    host = next((h.lstrip(".") for h in ALLOWED_HOSTS if h.strip(".*")), "localhost")
    secure = env("SECURE") if env("SECURE") is not None else True
    return f"{'https' if secure else 'http'}://{host}"


# The site's public address: every link in an email starts with it, whichever host the request that
# caused the email came in on (and background tasks have no request at all). No trailing slash.
SITE_URL = env("SITE_URL", default=_default_site_url()).rstrip("/")
if not SITE_URL.startswith(("http://", "https://")):
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured(f"SITE_URL must start with https:// or http://, not {SITE_URL!r}.")

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "clubsite" / "static"]
# Files browsers ask for at the site's root whatever the page says (favicon.ico), served by WhiteNoise.
WHITENOISE_ROOT = BASE_DIR / "clubsite" / "public"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# Email: console in development; EMAIL_URL (smtp://user:pass@host:port) in production.
EMAIL_CONFIG = env.email_url("EMAIL_URL", default="consolemail://")
vars().update(EMAIL_CONFIG)
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", default="noreply@clubsite.local")
# A mail server that does not answer fails the attempt (it is retried from the outbox) rather than hanging.
EMAIL_TIMEOUT = env.int("EMAIL_TIMEOUT", default=20)
# Without a broker, mail is sent after the response, and a request now and then retries what is due.
OUTBOX_SWEEP_ON_REQUEST = env.bool("OUTBOX_SWEEP_ON_REQUEST", default=True)
OUTBOX_SWEEP_EVERY = 60

# Accounts (django-allauth): log in by email, verified before first log-in.
ACCOUNT_LOGIN_METHODS = {"email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_UNIQUE_EMAIL = True
# Nobody learns from the site whether an address has an account: signing up with a registered address answers as a
# new one does (the address is mailed that it has an account), and a password reset for an unknown address as for a
# known one (the address is mailed that there is no account).
ACCOUNT_PREVENT_ENUMERATION = True
ACCOUNT_CONFIRM_EMAIL_ON_GET = True
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_ADAPTER = "players.adapters.AccountAdapter"
ACCOUNT_USER_DISPLAY = "players.adapters.user_display"
ACCOUNT_FORMS = {"signup": "players.forms.SignupForm"}
# Failed log-ins, counted in the shared cache for the log-in form and the API token alike (players.access): 5 for
# one account in 5 minutes, whatever the address or name it is tried with, and 10 a minute from one client address.
ACCOUNT_RATE_LIMITS = {"login_failed": "10/m/ip,5/5m/key"}
# Who may get in, by the log-in page, the API's token endpoint and every request with a token: one rule.
ACCESS_POLICY = "players.access.check_access"
# The client's address for the lockout and every other counter (clubsite.kit.ip.client_ip): the direct peer, unless
# it is one of TRUSTED_PROXIES (addresses or CIDR ranges, e.g. 127.0.0.1 for a proxy on the same machine); then the
# rightmost address in CLIENT_IP_HEADER that is not a trusted proxy.
TRUSTED_PROXIES = env.list("TRUSTED_PROXIES", default=[])
CLIENT_IP_HEADER = env("CLIENT_IP_HEADER", default="X-Forwarded-For")
trusted_proxies(tuple(TRUSTED_PROXIES))  # a malformed entry stops the site at start-up, not at a log-in
# allauth asks the account adapter for the address (players.adapters, the same client_ip), so its own header
# settings stay at "believe no header".
ALLAUTH_TRUSTED_PROXY_COUNT = 0
ALLAUTH_TRUSTED_CLIENT_IP_HEADER = None
LOGIN_REDIRECT_URL = "players:me"
ACCOUNT_LOGOUT_REDIRECT_URL = "home"

CRISPY_ALLOWED_TEMPLATE_PACKS = "bootstrap5"
CRISPY_TEMPLATE_PACK = "bootstrap5"

REST_FRAMEWORK = {
    # The token first: a refused token is answered 401 with WWW-Authenticate (clubsite.kit.authentication).
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "clubsite.kit.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PAGINATION_CLASS": "clubsite.kit.api.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "clubsite.kit.schema.AutoSchema",
    "EXCEPTION_HANDLER": "clubsite.kit.api.exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "clubsite API",
    "DESCRIPTION": "Members, events, entries and ratings of a Scrabble association.",
    "VERSION": "1.0.0",
    # Swagger UI served by the site itself, not a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # A description says what an endpoint or a schema does for a client, never what a base class of the code is for.
    "GET_LIB_DOC_EXCLUDES": "clubsite.kit.schema.doc_excludes",
    # Several models have a "kind" or "status" field; name each choice set after its model.
    "ENUM_NAME_OVERRIDES": {
        "EventKindEnum": "events.models.event.EventKind",
        "PrizeKindEnum": "events.models.event.PrizeKind",
        "GameKindEnum": "events.play.models.tournament.GameKind",
        "EventStatusEnum": "events.models.event.EventStatus",
        "EntryStatusEnum": "events.models.entries.EntryStatus",
        "GameStatusEnum": "events.play.models.tournament.GameStatus",
        "RoundStatusEnum": "events.play.models.tournament.RoundStatus",
        # The event's pairing system and the pairing form's system are the same list (events.play.core.pairing).
        "PairingSystemEnum": "events.models.event.PairingSystem",
    },
}

# Celery: without a broker, tasks run eagerly in-process.
_BROKER = env("CELERY_BROKER_URL", default="")
CELERY_TASK_ALWAYS_EAGER = not _BROKER
CELERY_BROKER_URL = _BROKER or "memory://localhost/"
CELERY_TASK_EAGER_PROPAGATES = True
# Redis keeps results itself; RabbitMQ has no result store, so results travel back over rpc://.
CELERY_RESULT_BACKEND = env(
    "CELERY_RESULT_BACKEND", default=_BROKER if _BROKER.startswith("redis") else ("rpc://" if _BROKER else None)
)
CELERY_TIMEZONE = TIME_ZONE
# A broker or result store that is down makes queuing fail in about a second instead of retrying for 20.
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {
    "retry_policy": {"max_retries": 2, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.5}
}
CELERY_BEAT_SCHEDULE_FILENAME = env("CELERY_BEAT_SCHEDULE_FILENAME", default=str(BASE_DIR / "celerybeat-schedule"))
# The worker logs through LOGGING below (one line per event), not Celery's own format.
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
CELERY_BEAT_SCHEDULE = {
    "outbox-send-due-messages": {
        "task": "outbox.tasks.send_due_messages",
        "schedule": 60.0,
    },
    "membership-renewal-reminders": {
        "task": "players.tasks.send_renewal_reminders",
        "schedule": crontab(hour=9, minute=0),
    },
    "events-sync-registration-status": {
        "task": "events.tasks.sync_event_statuses",
        "schedule": crontab(minute="*/5"),
    },
    "events-lapse-unpaid-entries": {
        "task": "events.tasks.lapse_unpaid_entries",
        "schedule": crontab(minute="*/5"),
    },
    "events-expire-offers": {
        "task": "events.tasks.expire_offers",
        "schedule": crontab(minute="*/5"),
    },
    "events-remind-expiring-offers": {
        "task": "events.tasks.remind_expiring_offers",
        "schedule": crontab(minute="*/15"),
    },
    "events-forget-unconfirmed-guest-entries": {
        "task": "events.tasks.forget_unconfirmed_guest_entries",
        "schedule": crontab(hour=3, minute=40),
    },
    "ratings-sweep-stale-runs": {
        "task": "ratings.tasks.sweep_rating_runs",
        "schedule": 60.0,
    },
    "ratings-monthly-snapshots": {
        "task": "ratings.tasks.take_monthly_snapshots",
        "schedule": crontab(day_of_month=1, hour=0, minute=30),
    },
}

MEMBERSHIP_REMINDER_DAYS = 30
# A rating run without a heartbeat for this long lost its worker and is queued again.
RATING_RUN_STALE_SECONDS = env.float("RATING_RUN_STALE_SECONDS", default=120)

# Security: on whenever DEBUG is off (override with SECURE=0 behind plain HTTP for testing).
SECURE = env("SECURE") if env("SECURE") is not None else not DEBUG
SESSION_COOKIE_SECURE = SECURE
CSRF_COOKIE_SECURE = SECURE
SECURE_SSL_REDIRECT = SECURE and env.bool("SECURE_SSL_REDIRECT", default=True)
SECURE_HSTS_SECONDS = 31536000 if SECURE else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE
SECURE_HSTS_PRELOAD = SECURE
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"

# Content-Security-Policy: scripts only from this site's own files (no inline scripts or handlers
# anywhere: behaviour lives in static/clubsite/site.js). Style attributes stay allowed: progress bars
# and charts set widths inline. The API's documentation page is the one exception (csp_exempt).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
# Load balancers check health over plain HTTP.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]

# One line per event (a traceback folded into its line), on standard error.
LOG_LEVEL = env("LOG_LEVEL", default="INFO")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "line": {
            "()": "clubsite.kit.log.OneLineFormatter",
            "format": "%(asctime)s %(levelname)s %(name)s [%(process)d] %(message)s",
        },
    },
    "filters": {"client_errors": {"()": "clubsite.kit.log.ClientErrorsWithoutTraceback"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "line", "filters": ["client_errors"]},
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        "django": {"handlers": ["console"], "level": LOG_LEVEL, "propagate": False},
        "django.server": {"handlers": ["console"], "level": LOG_LEVEL, "propagate": False},
    },
}

# Errors go to Sentry when SENTRY_DSN is set (Django, Celery and error-level log records); nothing otherwise.
SENTRY_DSN = env("SENTRY_DSN", default="")
if SENTRY_DSN:
    import sentry_sdk

    sentry_sdk.init(
        dsn=SENTRY_DSN,
        environment=env("SENTRY_ENVIRONMENT", default="production"),
        release=env("SENTRY_RELEASE", default=None),
        traces_sample_rate=env.float("SENTRY_TRACES_SAMPLE_RATE", default=0.0),
        send_default_pii=False,
    )
