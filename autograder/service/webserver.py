"""The web process: gunicorn serving the Django app, as an unprivileged user when started as root.

Started as root, ``run_web`` forks: the child loads everything the pages need while it can still
read it (Python's own files may sit in a folder only root can open), renders every template once
into the cached loader, then drops to ``web_user`` for good (groups, gid, uid) before it opens a
socket to the world, and runs gunicorn's arbiter and its workers as that user.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import pkgutil
import pwd
from pathlib import Path

# Modules that requests use lazily; imported before dropping privileges.
_PRELOAD = ("gunicorn.workers.gthread", "gunicorn.glogging", "gunicorn.http.wsgi", "concurrent.futures.thread",
            "email.utils", "email.message", "email.mime.text", "http.cookies", "mimetypes", "uuid", "zipfile",
            "encodings.idna", "multipart", "django.http.multipartparser", "django.core.files.uploadhandler",
            "django.core.files.uploadedfile", "django.contrib.auth.backends", "django.contrib.sessions.backends.db",
            "django.contrib.messages", "django.template.defaulttags", "django.template.defaultfilters",
            "django.template.loader_tags", "django.templatetags.static", "django.views.csrf", "django.views.defaults",
            "autograder.service.web.urls", "autograder.feedback.page", "autograder.feedback.report",
            "autograder.feedback.similarity_page", "autograder.term.similarity", "django_tasks_db.models",
            "django.db.backends.sqlite3.base", "django.db.backends.sqlite3.operations",
            "django.db.backends.sqlite3.introspection", "django.db.backends.sqlite3.features",
            "django.db.backends.sqlite3.schema")


def web_user_ids(name: str) -> tuple[int, int]:
    try:
        entry = pwd.getpwnam(name)
    except KeyError:
        raise SystemExit(f"the web user {name!r} does not exist here: set KIT_SERVICE_WEB_USER to an unprivileged"
                         " user (the web process never runs as root)") from None
    if entry.pw_uid == 0:
        raise SystemExit("KIT_SERVICE_WEB_USER names root: the web process never runs as root")
    return entry.pw_uid, entry.pw_gid


def _warm_up() -> None:
    """Import what requests need and fill the template cache, while the files can be read."""
    from django.template import engines

    for name in _PRELOAD:
        with contextlib.suppress(ImportError):  # an optional module of this Python or Django version
            importlib.import_module(name)
    import encodings

    for module in pkgutil.iter_modules(encodings.__path__):
        with contextlib.suppress(ImportError):  # another platform's codec (mbcs, oem)
            importlib.import_module(f"encodings.{module.name}")
    engine = engines["django"]
    templates = Path(engine.engine.dirs[0])
    for template in sorted(templates.rglob("*.html")):
        engine.get_template(str(template.relative_to(templates)))
    # Every translation catalog, read now into the process's cache (the pages render in three languages).
    from autograder.course.paths import LOCALES_DIR
    from autograder.student import language as languages

    for locales in (LOCALES_DIR, languages.STUDENT_LOCALES_DIR):
        for catalog in sorted(locales.glob("*/*.json")):
            languages.load_catalog(catalog.parent.name, catalog.stem, locales)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot  # noqa: F401 - the class report's charts


def _drop_privileges(name: str) -> None:
    uid, gid = web_user_ids(name)
    os.setgroups([])
    os.setgid(gid)
    os.setuid(uid)
    if os.getuid() == 0 or os.geteuid() == 0:
        raise SystemExit("could not leave root for the web process")


def run_web(bind: str, processes: int, web_user: str) -> None:
    """Serve until stopped (in this process: call it in a child)."""
    from django.core.wsgi import get_wsgi_application
    from gunicorn.app.base import BaseApplication

    application = get_wsgi_application()
    uid, gid = web_user_ids(web_user) if os.geteuid() == 0 else (os.geteuid(), os.getegid())

    class Web(BaseApplication):
        def load_config(self):
            for key, value in {"bind": [bind], "workers": processes, "worker_class": "gthread", "threads": 8,
                               "timeout": 120, "graceful_timeout": 5, "accesslog": None, "errorlog": "-",
                               "loglevel": "warning", "proc_name": "attention-kit-web",
                               "user": uid, "group": gid, "control_socket_disable": True,
                               "chdir": "/"}.items():  # the kit's folder may be closed to the web user
                self.cfg.set(key, value)

        def load(self):
            return application

    os.chdir("/")
    os.environ["PWD"] = "/"  # gunicorn checks its working folder through PWD
    server = Web()  # its configuration is read and checked while the files can be read
    if os.geteuid() == 0:
        _warm_up()
        _drop_privileges(web_user)
    server.run()
