"""Settings of the stand-in LMS, from the environment that its runner sets (``demo.py``, and
``tests/lti_harness.py`` for the tests)."""

import os
from pathlib import Path

DATA = Path(os.environ["LTI_PLATFORM_DATA"])
PLATFORM_URL = os.environ["LTI_PLATFORM_URL"]  # also its issuer
TOOL_URL = os.environ["LTI_TOOL_URL"]
CLIENT_ID = os.environ.get("LTI_PLATFORM_CLIENT_ID", "attention-kit-tool")
DEPLOYMENT_ID = os.environ.get("LTI_PLATFORM_DEPLOYMENT_ID", "deployment-1")

SECRET_KEY = (DATA / "secret_key").read_text().strip()
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
INSTALLED_APPS = ["django.contrib.sessions", "autograder.service.lti.demo_platform.apps.DemoPlatformConfig"]
MIDDLEWARE = ["django.contrib.sessions.middleware.SessionMiddleware"]
ROOT_URLCONF = "autograder.service.lti.demo_platform.urls"
TEMPLATES = [{"BACKEND": "django.template.backends.django.DjangoTemplates",
              "DIRS": [str(Path(__file__).parent / "templates")], "OPTIONS": {"autoescape": True}}]
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": str(DATA / "platform.sqlite3"),
                         "OPTIONS": {"timeout": 30, "transaction_mode": "IMMEDIATE"}}}
# The browser also holds the tool's cookies for 127.0.0.1 (cookies ignore ports): names of its own.
SESSION_COOKIE_NAME = "platform_session"
USE_TZ = True
TIME_ZONE = "UTC"  # the LMS's own clock (Django's default is America/Chicago)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
LOGGING = {"version": 1, "disable_existing_loggers": False,
           "handlers": {"console": {"class": "logging.StreamHandler"}},
           "loggers": {"django": {"handlers": ["console"], "level": "WARNING"}}}
