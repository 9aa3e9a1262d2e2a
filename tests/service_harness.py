"""A live submission service for tests: ``python -m autograder serve`` on a free loopback port,
with its own data folder, stopped (its whole process group, and nothing else) at the end; on
SQLite, or on a PostgreSQL server given by its URL; optionally with grading workers of its own
process trees (``python -m autograder service worker``), as on other machines.

The tests talk to it over HTTP (``requests``), run its instructor commands as an instructor
would (``python -m autograder service ...``), and read its database directly to count what was
stored.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil
import requests

from autograder.paths import HIDDEN_TESTS_DIR, KIT_ROOT

# Debian's Chromium for the browser tests, as the machine's closed network needs: no background
# connections, no first-run dialogs.
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-quic"]

EXAMPLE = KIT_ROOT / "source_data" / "example_class"


def follow(page, target) -> None:
    """Clicks a link or a form's button (a selector or a Playwright locator) and waits for the page
    it leads to to have loaded: a click waits only for the navigation to start, so what is read
    at once may still be the old page, or nothing."""
    with page.expect_navigation():
        (page.locator(target) if isinstance(target, str) else target).click()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def notebook_bytes(student: str, assignment: str, **metadata) -> bytes:
    """An example-class notebook, with extra metadata (distinct bytes, or a language)."""
    path = EXAMPLE / student / assignment / f"{assignment}.ipynb"
    notebook = json.loads(path.read_text(encoding="utf-8"))
    kit = notebook["metadata"].setdefault("attention_kit", {})
    kit.update(metadata)
    return json.dumps(notebook).encode()


def secret_lines() -> list[str]:
    """Lines that only the hidden tests, the rubric and the solutions' answers hold."""
    lines = set()
    for path in [*HIDDEN_TESTS_DIR.glob("test_*.py"), KIT_ROOT / "autograder" / "course" / "rubric.toml"]:
        lines |= {line.strip() for line in path.read_text().splitlines() if len(line.strip()) > 50}
    for notebook in (KIT_ROOT / "solutions").glob("*/*.ipynb"):
        for cell in json.loads(notebook.read_text())["cells"]:
            source = "".join(cell["source"])
            inside = source.split("### BEGIN SOLUTION")[1:] if "### BEGIN SOLUTION" in source else []
            for region in inside:
                lines |= {line.strip() for line in region.split("### END SOLUTION")[0].splitlines()
                          if len(line.strip()) > 25}
    return sorted(lines)


class LiveService:
    def __init__(self, workers: int = 1, database_url: str | None = None, separate_workers: int = 0,
                 serve_args: tuple[str, ...] = (), environment: dict[str, str] | None = None,
                 **settings: str | None):
        """``workers``: grading workers that ``serve`` starts; ``separate_workers``: more, each the
        root of a process tree of its own (as on another machine); ``database_url``: PostgreSQL's
        (default: SQLite in the data folder); ``serve_args``: more of serve's arguments;
        ``environment``: more variables; ``settings``: KIT_SERVICE_<NAME> variables (None: unset,
        so that a flag or the settings file decides)."""
        # Not under pytest's 0700 tmp folder: the web process's own user must reach the data.
        self.root = Path(tempfile.mkdtemp(prefix="kit-service-test-"))
        self.root.chmod(0o755)
        self.data = self.root / "data"
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.workers = workers
        self.database_url = database_url
        self.env = {**os.environ, "KIT_SERVICE_DATA": str(self.data), "KIT_SERVICE_BASE_URL": self.url,
                    **{f"KIT_SERVICE_{key.upper()}": value for key, value in settings.items()}, **(environment or {})}
        self.env = {key: value for key, value in self.env.items() if value is not None}
        self.serve_args = tuple(serve_args)
        if database_url:
            self.env["KIT_SERVICE_DATABASE_URL"] = database_url
        self.process: subprocess.Popen | None = None
        self.separate: list[subprocess.Popen] = [None] * separate_workers
        self.log = self.root / "serve.log"

    @classmethod
    def of_running(cls, data: Path, url: str) -> LiveService:
        """A service someone else started and stops (the LTI demo's): its command line, database
        and pages, with no process of ours."""
        live = cls()
        live.data, live.url = data, url
        live.env.update(KIT_SERVICE_DATA=str(data), KIT_SERVICE_BASE_URL=url)
        return live

    # -- processes ---------------------------------------------------------------------------
    def start(self, wait_for_worker: bool = True) -> LiveService:
        """Start serve (and the separate workers) and wait until they are ready; if they do not
        become ready, stop every process started here before raising."""
        try:
            return self._start(wait_for_worker)
        except BaseException:
            self.stop(hard=True)
            raise

    def _start(self, wait_for_worker: bool) -> LiveService:
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "autograder", "serve", "--port", str(self.port), "--workers", str(self.workers),
                 *self.serve_args],
                cwd=KIT_ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"serve stopped:\n{self.log.read_text()[-3000:]}")
            with contextlib.suppress(requests.RequestException):  # not yet, or slow under load
                if requests.get(self.url + "/", timeout=5).status_code == 200:
                    break
            time.sleep(0.3)
        else:
            raise RuntimeError(f"serve did not become ready:\n{self.log.read_text()[-3000:]}")
        for index in range(len(self.separate)):
            self.start_separate_worker(index)
        wanted = self.workers + len(self.separate)
        while wait_for_worker and len(self.ready_workers()) < wanted:
            if time.monotonic() > deadline:
                raise RuntimeError(f"the grading workers did not become ready:\n{self.log.read_text()[-3000:]}")
            time.sleep(0.3)
        return self

    def start_separate_worker(self, index: int) -> None:
        """A grading worker in a session and process tree of its own, as another machine's."""
        with (self.root / f"worker-{index}.log").open("ab") as log:
            self.separate[index] = subprocess.Popen([sys.executable, "-m", "autograder", "service", "worker"],
                                                    cwd=KIT_ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
                                                    start_new_session=True)

    def kill_separate_worker(self, index: int) -> None:
        """SIGKILL to a separate worker's whole tree at once (its fork server has a session of its
        own), as when its machine loses power."""
        root = psutil.Process(self.separate[index].pid)
        tree = [root, *root.children(recursive=True)]
        for process in tree:
            with contextlib.suppress(psutil.Error):
                process.kill()
        psutil.wait_procs(tree, timeout=30)
        self.separate[index].wait(timeout=30)

    def web_processes(self) -> list[psutil.Process]:
        """The web process (gunicorn's arbiter) and its workers, as they are now."""
        web = psutil.Process(int(re.search(r"web pid (\d+)", self.log.read_text()).group(1)))
        return [web, *web.children(recursive=True)]

    def ready_workers(self) -> list[tuple]:
        return self.query("SELECT worker_id, pid FROM service_gradingworker WHERE state = 'ready'")

    def stop(self, hard: bool = False) -> None:
        """Stop the service: SIGTERM to serve (it stops its children), or SIGKILL to every process
        of its session (``hard``: a machine that lost power); the separate workers likewise."""
        for index, worker in enumerate(self.separate):
            if worker is None or worker.poll() is not None:
                continue
            if hard:
                self.kill_separate_worker(index)
            else:
                worker.terminate()
                try:
                    worker.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    self.kill_separate_worker(index)
        if self.process is None:
            return
        group = self.process.pid  # start_new_session: the group is serve's own
        if hard:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(group, signal.SIGKILL)
        else:
            self.process.send_signal(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=30)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(group, signal.SIGKILL)
        self.process.wait(timeout=30)
        self.process = None

    def close(self) -> None:
        self.stop(hard=True)
        shutil.rmtree(self.root, ignore_errors=True)

    # -- the instructor's command line and the database ----------------------------------------
    def cli(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        done = subprocess.run([sys.executable, "-m", "autograder", "service", *args], cwd=KIT_ROOT, env=self.env,
                              capture_output=True, text=True, timeout=120)
        if check and done.returncode != 0:
            raise AssertionError(f"service {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
        return done

    def query(self, sql: str, *params) -> list[tuple]:
        """Rows of ``sql`` (``?`` placeholders) from the service's database, read directly."""
        if self.database_url:
            import psycopg

            with psycopg.connect(self.database_url) as connection:
                try:
                    return connection.execute(sql.replace("?", "%s"), params).fetchall()
                except psycopg.errors.UndefinedTable:
                    return []
        database = self.data / "service.sqlite3"
        if not database.exists():
            return []
        with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=30)) as connection:
            try:
                return connection.execute(sql, params).fetchall()
            except sqlite3.OperationalError as error:
                if "no such table" in str(error):
                    return []
                raise

    def link_for(self, user_id: str, instructor: bool = False) -> str:
        if instructor:
            return self.cli("instructor", user_id).stdout.strip()
        roster = self.root / f"roster-{user_id}.csv"
        roster.write_text(f"student_id,name\n{user_id},{user_id.title()}\n")
        lines = self.cli("links", str(roster)).stdout.strip().splitlines()
        return lines[-1].split(",")[-1]

    def signed_in(self, user_id: str, instructor: bool = False) -> requests.Session:
        session = requests.Session()
        link = self.link_for(user_id, instructor)
        page = session.get(link, timeout=30)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text).group(1)
        answer = session.post(link, data={"csrfmiddlewaretoken": token}, headers={"Referer": link}, timeout=30)
        assert answer.status_code == 200, answer.text[-500:]
        return session

    def upload(self, session: requests.Session, assignment: str, content: bytes, filename: str | None = None):
        """Submit through the page's form, as a browser does (its CSRF token included)."""
        form = session.get(f"{self.url}/assignments/{assignment}", timeout=30)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form.text).group(1)
        return session.post(f"{self.url}/assignments/{assignment}/upload", data={"csrfmiddlewaretoken": token},
                            files={"notebook": (filename or f"{assignment}.ipynb", content)},
                            headers={"Referer": f"{self.url}/assignments/{assignment}"}, timeout=60)

    def api_submit(self, token: str, assignment: str, content: bytes, filename: str | None = None):
        return requests.post(f"{self.url}/api/v1/submissions", headers={"Authorization": f"Bearer {token}"},
                             data={"assignment": assignment},
                             files={"notebook": (filename or f"{assignment}.ipynb", content)}, timeout=60)

    def wait_graded(self, token: str, submission_id: int, timeout: float = 120) -> dict:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            status = requests.get(f"{self.url}/api/v1/submissions/{submission_id}",
                                  headers={"Authorization": f"Bearer {token}"}, timeout=30).json()
            if status.get("state") == "done":
                return status
            time.sleep(0.1)
        raise AssertionError(f"submission {submission_id} not graded in {timeout} s:\n{self.log.read_text()[-3000:]}")

    def submissions(self) -> int:
        return self.query("SELECT COUNT(*) FROM service_submission")[0][0]
