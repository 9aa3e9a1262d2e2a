"""A live learning platform for the LTI tests: the kit's stand-in LMS
(``autograder/service/lti/demo_platform``: lti1p3platform, hosted by a small Django project; the
one ``make lti-demo`` runs) under gunicorn on a free loopback port, with its own keys and database in a
temporary folder that outlast ``stop`` and ``start`` (the platform down, then up again)."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

import requests
from service_harness import LiveService, free_port

from autograder.service.lti.demo import platform_keys

PLATFORM_SETTINGS = "autograder.service.lti.demo_platform.settings"
CLIENT_ID = "attention-kit-tool"
DEPLOYMENT_ID = "deployment-1"


class LivePlatform:
    def __init__(self, tool_url: str):
        self.root = Path(tempfile.mkdtemp(prefix="kit-lti-platform-"))
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        platform_keys(self.root)
        self.env = {**os.environ, "LTI_PLATFORM_DATA": str(self.root), "LTI_PLATFORM_URL": self.url,
                    "LTI_TOOL_URL": tool_url, "DJANGO_SETTINGS_MODULE": PLATFORM_SETTINGS}
        self.log = self.root / "platform.log"
        self.process: subprocess.Popen | None = None
        done = subprocess.run([sys.executable, "-m", "django", "migrate", "--run-syncdb", "--verbosity", "0"],
                              env=self.env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stdout + done.stderr

    def start(self) -> LivePlatform:
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "gunicorn", "autograder.service.lti.demo_platform.wsgi:application", "--bind",
                 f"127.0.0.1:{self.port}",
                 "--workers", "2", "--timeout", "60", "--graceful-timeout", "2"],
                env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 60
        while True:
            with contextlib.suppress(requests.RequestException):  # not yet, or slow under load
                if requests.get(self.url + "/jwks", timeout=5).status_code == 200:
                    return self
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"the platform did not start:\n{self.log.read_text()[-3000:]}")
            time.sleep(0.2)

    def stop(self) -> None:
        """The platform goes down (its data stays)."""
        if self.process is None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)
        self.process = None

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.root, ignore_errors=True)

    def register_with(self, service: LiveService, name: str = "lms", deployments=(DEPLOYMENT_ID,)) -> None:
        """What an administrator does: register this platform with the service."""
        extra = [argument for deployment in deployments for argument in ("--deployment", deployment)]
        service.cli("lti", "register", name, "--issuer", self.url, "--client-id", CLIENT_ID, "--login-url",
                    self.url + "/authorize", "--token-url", self.url + "/token", "--jwks-url", self.url + "/jwks",
                    *extra)

    def signin_url(self, user: str, course: str, role: str = "Learner") -> str:
        return f"{self.url}/signin?{urlencode({'user': user, 'course': course, 'role': role, 'title': course.title()})}"

    def query(self, sql: str, *params) -> list[tuple]:
        with contextlib.closing(sqlite3.connect(f"file:{self.root / 'platform.sqlite3'}?mode=ro", uri=True,
                                                timeout=30)) as connection:
            return connection.execute(sql, params).fetchall()

    def execute(self, sql: str, *params) -> None:
        """Change the platform's records directly, as its administrator might."""
        with contextlib.closing(sqlite3.connect(self.root / "platform.sqlite3", timeout=30)) as connection:
            connection.execute(sql, params)
            connection.commit()


@contextlib.contextmanager
def served_with_platform(live: LiveService):
    """``live`` started beside a stand-in LMS registered with it (``live.lms``); both are stopped
    afterwards, even when one of them could not start."""
    lms = LivePlatform(live.url)
    try:
        live.start()
        lms.start()
        lms.register_with(live)
        live.lms = lms
        yield live
    finally:
        lms.close()
        live.close()
