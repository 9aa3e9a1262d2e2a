"""The service's Django settings, from the service's own (``autograder.service.config``: command-line
flag, environment, settings file, default). Defaults serve one machine on localhost with SQLite."""

from __future__ import annotations

from autograder.service.config import ServiceConfig

CONFIG = ServiceConfig.load()

SECRET_KEY = CONFIG.secret_key()
DEBUG = False
ALLOWED_HOSTS = CONFIG.allowed_hosts
INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django_tasks",
    "django_tasks_db",
    "autograder.service",
]
MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "autograder.service.web.middleware.ContentSecurityPolicy",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]
ROOT_URLCONF = "autograder.service.web.urls"
TEMPLATES = [{
    "BACKEND": "django.template.backends.django.DjangoTemplates",
    "DIRS": [],
    "APP_DIRS": False,
    "OPTIONS": {
        # Cached: the web process reads each template once (webserver.py fills the cache before it
        # leaves root, so the kit's folder need not be readable by the web user).
        "loaders": [("django.template.loaders.cached.Loader", ["django.template.loaders.filesystem.Loader"])],
        "context_processors": ["django.template.context_processors.request",
                               "django.contrib.auth.context_processors.auth"],
        "autoescape": True,
    },
}]
TEMPLATES[0]["DIRS"] = [str(CONFIG.templates_dir)]
DATABASES = {"default": CONFIG.database()}
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["grading"]}}
AUTH_PASSWORD_VALIDATORS: list = []
USE_TZ = True
TIME_ZONE = CONFIG.time_zone.key  # the course's: the templates' date filters show times in it
USE_I18N = False
LOGIN_URL = "/signin"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# No body above max_request_bytes reaches Django (web/bounded_requests.py), so an upload always fits
# in memory: it is never written to disk (no temporary-file handler), and nothing reads more.
DATA_UPLOAD_MAX_MEMORY_SIZE = CONFIG.max_request_bytes
FILE_UPLOAD_MAX_MEMORY_SIZE = CONFIG.max_request_bytes
FILE_UPLOAD_HANDLERS = ["django.core.files.uploadhandler.MemoryFileUploadHandler"]

# Cookies: HttpOnly sessions, SameSite=Lax (Strict would drop the session on the link from an
# e-mail), Secure behind TLS; the CSRF cookie stays readable by no script (the forms carry it).
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_HTTPONLY = True
CSRF_COOKIE_SAMESITE = "Lax"
SESSION_COOKIE_AGE = int(CONFIG.session_hours * 3600)
SESSION_COOKIE_SECURE = CONFIG.behind_tls
CSRF_COOKIE_SECURE = CONFIG.behind_tls
CSRF_TRUSTED_ORIGINS = CONFIG.trusted_origins
if CONFIG.behind_tls:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = 31536000
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Every record reaches one handler, through the filter that takes secrets out (log_redaction.py):
# Django's refusals name the request's path, which for a sign-in link is the secret itself.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"redact_secrets": {"()": "autograder.service.log_redaction.RedactSecrets"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["redact_secrets"]}},
    "root": {"handlers": ["console"], "level": "WARNING"},
    "loggers": {"django": {"handlers": ["console"], "level": "WARNING", "propagate": False}},
}
