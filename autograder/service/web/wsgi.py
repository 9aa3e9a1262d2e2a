"""The web's WSGI application: Django's, behind the bound on request bodies (``bounded_requests``)."""

import os

from django.core.wsgi import get_wsgi_application

from autograder.service.web.bounded_requests import BoundedRequests

# The kit's own settings, never a DJANGO_SETTINGS_MODULE another project left in the environment.
os.environ["DJANGO_SETTINGS_MODULE"] = "autograder.service.settings"
_django = get_wsgi_application()  # loads the settings

from django.conf import settings  # noqa: E402 - read once Django is set up

application = BoundedRequests(_django, settings.CONFIG.max_request_bytes, settings.CONFIG.max_upload_bytes / 2**20)
