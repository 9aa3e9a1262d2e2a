"""The web process: gunicorn serving the Django app, as an unprivileged user when started as root.

Started as root, ``serve`` forks this process, which loads everything the pages need while it
can still read it (Python, the kit and its .venv may be readable by root only: a kit cloned into
a private folder, Python under root's home), renders each kind of page once into the caches,
then drops to ``web_user`` for good (groups, gid, uid) and runs gunicorn's arbiter and its
workers as that user.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import os
import pkgutil
import pwd
import shutil
from pathlib import Path

# What LTI needs to talk to platforms (launches fetch a platform's keys; the passback sender posts
# scores): imported before leaving root too.
SENDER_PACKAGES = ("pylti1p3", "jwt", "jwcrypto", "requests", "urllib3", "certifi", "idna", "charset_normalizer",
                   "cryptography", "ssl", "http", "email", "json", "encodings", "psycopg", "psycopg_binary", "django",
                   "autograder.service")
# The system's certificate authorities, readable by every user (certifi's copy in the kit's .venv
# may not be, for the web user).
SYSTEM_CA_BUNDLE = Path("/etc/ssl/certs/ca-certificates.crt")
# Packages whose every module is imported before the web process leaves root: Django and
# gunicorn import modules as requests first need them.
_PACKAGES = ("django", "gunicorn", "django_tasks", "django_tasks_db", "autograder.service", "autograder.feedback",
             "autograder.findings", "autograder.platforms.service_client", "autograder.term.similarity",
             "autograder.term.answers", "jinja2", "markupsafe", "copydetect", "encodings", "email", "http", "json",
             "urllib", "html", "xml.dom", "sqlite3", "concurrent.futures", "logging", "multiprocessing.connection",
             "zoneinfo", "asyncio", "psycopg", "psycopg_binary", *SENDER_PACKAGES)
# Not needed, and not importable without what they drive (GIS libraries, other databases, other
# workers' event loops, other platforms' codecs).
_SKIPPED = ("django.contrib.gis", "django.db.backends.mysql", "django.db.backends.oracle", "django.contrib.postgres",
            "gunicorn.workers.geventlet", "gunicorn.workers.ggevent",
            "gunicorn.workers.gtornado", "gunicorn.dirty", "encodings.mbcs", "encodings.oem", "encodings.cp65001")


def import_everything(package: str) -> None:
    with contextlib.suppress(Exception):
        module = importlib.import_module(package)
        for found in pkgutil.walk_packages(getattr(module, "__path__", []), package + ".", onerror=lambda name: None):
            if found.name.startswith(_SKIPPED) or ".tests" in found.name or found.name.endswith(".__main__"):
                continue
            with contextlib.suppress(Exception):  # a module for a platform or an option this setup lacks
                importlib.import_module(found.name)


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
    """Import what requests need, fill the template caches and render each kind of page once,
    while the files can be read."""
    from django.template import engines

    for package in _PACKAGES:
        import_everything(package)
    engine = engines["django"]
    templates = Path(engine.engine.dirs[0])
    for template in sorted(templates.rglob("*.html")):
        engine.get_template(str(template.relative_to(templates)))
    # The kit's own pages (jinja2): compiled once and kept, never checked against their files again.
    from autograder.feedback.page import templates as kit_templates

    kit_templates.auto_reload = False
    for name in kit_templates.list_templates():
        kit_templates.get_template(name)
    # Every translation catalog, into the process's cache (pages render in three languages).
    from autograder.paths import LOCALES_DIR
    from autograder.student import language as languages

    for locales in (LOCALES_DIR, languages.STUDENT_LOCALES_DIR):
        for catalog in sorted(locales.glob("*/*.json")):
            if not catalog.name.endswith(".hashes.json"):  # reviews' records (tools/translations.py), never read here
                languages.load_catalog(catalog.parent.name, catalog.stem, locales)
    # The similarity page compares answers with the released notebooks' own code.
    from autograder.student.curriculum import ASSIGNMENTS
    from autograder.term.similarity import given_elsewhere, starter_fingerprints

    for assignment in ASSIGNMENTS:
        starter_fingerprints(assignment)
        given_elsewhere(assignment)
    # The class report draws charts: matplotlib opens its fonts anew in every process it forks, so
    # the fonts it uses are copied where the web user can read them.
    import matplotlib
    from django.conf import settings
    from matplotlib import font_manager

    matplotlib.use("Agg")
    matplotlib.rcParams["font.enable_last_resort"] = False  # a glyph no font has is drawn as a box
    fonts = settings.CONFIG.data_dir / "fonts"
    fonts.mkdir(exist_ok=True)
    readable = []
    for entry in font_manager.fontManager.ttflist:
        if entry.name.startswith("DejaVu"):  # the default family, all the report uses
            copy = fonts / Path(entry.fname).name
            shutil.copyfile(entry.fname, copy)
            copy.chmod(0o644)
            entry = dataclasses.replace(entry, fname=str(copy))
        readable.append(entry)
    font_manager.fontManager.ttflist = readable
    from autograder.feedback.report import report_html
    from autograder.records.results import GradedRow, RowKind, RowStatus, ScoredTest, TestStatus
    from autograder.student.curriculum import STAGES_BY_ASSIGNMENT

    rows = []
    for assignment, stages in STAGES_BY_ASSIGNMENT.items():  # a class with both charts and every label
        tests = tuple(ScoredTest(f"test_{stage}", stage, 0.0, 1.0, TestStatus.FAILED if index % 2 else
                                 TestStatus.PASSED) for index, stage in enumerate(stages))
        rows += [GradedRow("warm-up", assignment, RowStatus(RowKind.GRADED), 50.0, 100.0, tests),
                 GradedRow("warm-up-2", assignment, RowStatus(RowKind.MISSING), 0.0, 100.0)]
    report_html(rows)


def drop_privileges(name: str) -> None:
    """Leave root for ``name`` for good (groups, gid, uid), after what the process needs is loaded."""
    if SYSTEM_CA_BUNDLE.exists():
        os.environ.setdefault("REQUESTS_CA_BUNDLE", str(SYSTEM_CA_BUNDLE))
    uid, gid = web_user_ids(name)
    os.setgroups([])
    os.setgid(gid)
    os.setuid(uid)
    if os.getuid() == 0 or os.geteuid() == 0:
        raise SystemExit("could not leave root for the web process")


def run_web(bind: str, processes: int, web_user: str) -> None:
    """Serve until stopped (in this process: call it in a child)."""
    from gunicorn.app.base import BaseApplication

    from autograder.service.web.wsgi import application

    uid, gid = web_user_ids(web_user) if os.geteuid() == 0 else (os.geteuid(), os.getegid())

    class Web(BaseApplication):
        def load_config(self):
            # Sync workers answer in their main thread, which a fork keeps: what the warm-up loaded
            # per thread (matplotlib's open fonts) is still theirs. Put a buffering proxy in front
            # in production (TLS, slow clients).
            for key, value in {"bind": [bind], "workers": processes, "worker_class": "sync",
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
        drop_privileges(web_user)
    server.run()
