"""The web process: gunicorn serving the Django app, as the web's own user (``privileges.py``).

The supported start is as that user, on an install it can read: then nothing here runs but
gunicorn. Started as root (the fallback), ``serve`` forks this process, which loads everything the
pages need while it can still read it (Python, the kit and its .venv may be readable by root
only: a kit cloned into a private folder, Python under root's home), renders each kind of page
once into the caches, then drops to ``web_user`` for good (groups, gid, uid) and runs gunicorn's
arbiter and its workers as that user. A module that cannot be imported then stops it, named,
unless a reason to leave it out is written down here: hidden, it would fail later, as the web
user, in the middle of a request.
"""

from __future__ import annotations

import dataclasses
import importlib
import os
import pkgutil
import shutil
import tempfile
from pathlib import Path

from gunicorn.glogging import Logger

from autograder.service.log_redaction import RedactSecrets
from autograder.service.privileges import drop_privileges, web_temp_dir, web_user_ids

# What LTI needs to talk to platforms (launches fetch a platform's keys; the passback sender posts
# scores): imported before leaving root too.
SENDER_PACKAGES = ("pylti1p3", "jwt", "jwcrypto", "requests", "urllib3", "certifi", "idna", "charset_normalizer",
                   "cryptography", "ssl", "http", "email", "json", "encodings", "psycopg", "psycopg_binary", "django",
                   "autograder.service")
# Packages whose every module is imported before the web process leaves root: Django and
# gunicorn import modules as requests first need them.
_PACKAGES = ("django", "gunicorn", "django_tasks", "django_tasks_db", "autograder.service", "autograder.feedback",
             "autograder.findings", "autograder.student.service_client", "autograder.term.similarity",
             "autograder.term.answers", "jinja2", "markupsafe", "copydetect", "encodings", "email", "http", "json",
             "urllib", "html", "xml.dom", "sqlite3", "concurrent.futures", "logging", "multiprocessing.connection",
             "zoneinfo", "asyncio", "psycopg", "psycopg_binary", "prometheus_client", *SENDER_PACKAGES)
# Modules never imported, each for its reason: nothing the service runs needs them, and they cannot
# be imported here.
_SKIPPED = (
    # Django apps this service does not install (their models need INSTALLED_APPS), and the GIS
    # libraries, other databases' drivers and the test runner.
    "django.contrib.admin", "django.contrib.auth.admin", "django.contrib.flatpages", "django.contrib.redirects",
    "django.contrib.sites", "django.contrib.gis", "django.contrib.postgres", "django.db.backends.mysql",
    "django.db.backends.oracle", "django.test", "django.core.management.commands.test", "django_tasks_db.admin",
    "pylti1p3.contrib.django.lti1p3_tool_config",  # pylti1p3's own registration app: tool.py reads ours
    # The stand-in LMS of make lti-demo: another Django project, with settings of its own, run in
    # processes of its own (lti/demo.py).
    "autograder.service.lti.demo_platform",
    # Other event loops' workers, and gunicorn's optional process managers.
    "gunicorn.workers.geventlet", "gunicorn.workers.ggevent", "gunicorn.workers.gtornado", "gunicorn.dirty",
    "gunicorn.app.pasterapp",
    # Options of the libraries that need packages the kit does not install (Flask, pyOpenSSL,
    # PySocks, h2, Pyodide's js, Paste, dnspython, Shapely, aiohttp, Twisted).
    "pylti1p3.contrib.flask", "prometheus_client.aiohttp", "prometheus_client.twisted",
    "urllib3.contrib.pyopenssl", "urllib3.contrib.socks", "urllib3.contrib.emscripten",
    "urllib3.http2", "psycopg._dns", "psycopg.types.shapely",
    # Other platforms'.
    "encodings.mbcs", "encodings.oem", "encodings.cp65001", "asyncio.windows_events", "asyncio.windows_utils",
)


def import_everything(package: str) -> None:
    """Import ``package`` and every module under it, but those left out for a reason (above);
    SystemExit naming each module that failed otherwise."""
    module = importlib.import_module(package)
    failed: list[str] = []
    # walk_packages imports each package again to look inside: its failure was recorded below already.
    for found in pkgutil.walk_packages(getattr(module, "__path__", []), package + ".", onerror=lambda name: None):
        if found.name.startswith(_SKIPPED) or ".tests" in found.name or found.name.endswith(".__main__"):
            continue
        try:
            importlib.import_module(found.name)
        except Exception as error:  # noqa: BLE001 - whatever it is, it is reported, never hidden
            failed.append(f"{found.name} ({type(error).__name__}: {error})")
    if failed:
        raise SystemExit(f"the web process could not import, as root, what it needs before leaving root: "
                         f"{'; '.join(failed)}. Fix the module, or start serve as the web user on an install it can"
                         " read (systemd's User=, the image's USER), which imports nothing ahead")


def _warm_up(owner: tuple[int, int]) -> None:
    """Import what requests need, fill the template caches and render each kind of page once,
    while the files can be read (the fonts copied for the web user are ``owner``'s)."""
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
    os.lchown(fonts, *owner)
    readable = []
    for entry in font_manager.fontManager.ttflist:
        if entry.name.startswith("DejaVu"):  # the default family, all the report uses
            copy = fonts / Path(entry.fname).name
            shutil.copyfile(entry.fname, copy)
            copy.chmod(0o644)
            os.lchown(copy, *owner)
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


class RedactingLogger(Logger):
    """gunicorn's logger, with secrets taken out of what it writes (it logs a failed request's URI)."""

    def setup(self, cfg: object) -> None:
        super().setup(cfg)
        for log in (self.error_log, self.access_log):
            if not any(isinstance(existing, RedactSecrets) for existing in log.filters):
                log.addFilter(RedactSecrets())


def run_web(bind: str, processes: int, web_user: str) -> None:
    """Serve until stopped (in this process: call it in a child)."""
    from django.conf import settings
    from gunicorn.app.base import BaseApplication

    from autograder.service.web.wsgi import application

    uid, gid = web_user_ids(web_user) if os.geteuid() == 0 else (os.geteuid(), os.getegid())
    # Temporary files (an upload while it is checked) go to the web's own folder, not a shared /tmp.
    os.environ["TMPDIR"] = tempfile.tempdir = str(web_temp_dir(settings.CONFIG.data_dir))

    class Web(BaseApplication):
        def load_config(self):
            # Sync workers answer in their main thread, which a fork keeps: what the warm-up loaded
            # per thread (matplotlib's open fonts) is still theirs. Put a buffering proxy in front
            # in production (TLS, slow clients).
            for key, value in {"bind": [bind], "workers": processes, "worker_class": "sync",
                               "timeout": 120, "graceful_timeout": 5, "accesslog": None, "errorlog": "-",
                               "loglevel": "warning", "proc_name": "attention-kit-web",
                               "user": uid, "group": gid, "control_socket_disable": True,
                               "logger_class": RedactingLogger,
                               "chdir": "/"}.items():  # the kit's folder may be closed to the web user
                self.cfg.set(key, value)

        def load(self):
            return application

    os.chdir("/")
    os.environ["PWD"] = "/"  # gunicorn checks its working folder through PWD
    server = Web()  # its configuration is read and checked while the files can be read
    if os.geteuid() == 0:
        _warm_up((uid, gid))
        drop_privileges(web_user)
    server.run()
