"""``make lti-demo`` (``python -m autograder service lti demo``): LTI 1.3 tried on one machine, with
no Moodle or Canvas. The kit's stand-in LMS (``demo_platform``) runs beside the service, each
registered with the other as an administrator would (the tool at the platform: its settings;
the platform at the tool: ``service lti register``), with a course of an instructor and two
learners whose links to the assignments are placed already. The addresses to open are printed;
Ctrl-C stops both.

Everything lives in one folder (a new temporary one, or ``--data``, kept and reused): the
service's data in ``service/``, the platform's keys and database in ``platform/``, and each one's
log. Nothing here imports Django: the service and the platform are two Django projects, each in
processes of its own.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from autograder.service.lti.titles import assignment_title
from autograder.student.curriculum import ASSIGNMENTS

PLATFORM_NAME = "demo-lms"  # the platform's name at the tool: learners' user names are made unique with it
CLIENT_ID = "attention-kit-tool"
DEPLOYMENT_ID = "deployment-1"
COURSE, COURSE_TITLE = "demo", "Attention, a demo course"
PEOPLE = (("teacher", "Tess Teacher", "Instructor"), ("ana", "Ana Learner", "Learner"),
          ("ben", "Ben Learner", "Learner"))
READY_SECONDS = 180


@dataclass(frozen=True)
class Demo:
    """Where the demo's two servers listen and keep their data."""

    folder: Path
    service_port: int
    platform_port: int

    @property
    def service_url(self) -> str:
        return f"http://127.0.0.1:{self.service_port}"

    @property
    def platform_url(self) -> str:
        return f"http://127.0.0.1:{self.platform_port}"

    def service_env(self) -> dict[str, str]:
        inherited = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
        return {**inherited, "KIT_SERVICE_DATA": str(self.folder / "service"), "KIT_SERVICE_BASE_URL": self.service_url}

    def platform_env(self) -> dict[str, str]:
        return {**os.environ, "LTI_PLATFORM_DATA": str(self.folder / "platform"), "LTI_PLATFORM_URL": self.platform_url,
                "LTI_TOOL_URL": self.service_url, "LTI_PLATFORM_CLIENT_ID": CLIENT_ID,
                "LTI_PLATFORM_DEPLOYMENT_ID": DEPLOYMENT_ID,
                "DJANGO_SETTINGS_MODULE": "autograder.service.lti.demo_platform.settings"}


def platform_keys(folder: Path) -> None:
    """The platform's RSA key pair and Django secret, made once (a reused folder keeps them)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    if (folder / "platform_private.pem").exists():
        return
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    (folder / "platform_public.pem").write_bytes(key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))
    (folder / "secret_key").write_text(secrets.token_urlsafe(40))
    private = folder / "platform_private.pem"
    private.touch(mode=0o600)
    private.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                          serialization.NoEncryption()))


def _run(command: list[str], env: dict[str, str], what: str) -> None:
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        raise DemoError(f"{what} failed:\n{done.stdout}{done.stderr}")


class DemoError(RuntimeError):
    """A step of the demo's start failed; the message says which, with its output."""


def prepare(demo: Demo) -> None:
    """The platform's keys, database and course, and its registration at the service."""
    python = sys.executable
    platform_keys(demo.folder / "platform")
    platform_env = demo.platform_env()
    _run([python, "-m", "django", "migrate", "--run-syncdb", "--verbosity", "0"], platform_env, "the LMS's database")
    people = [f"--person={user}:{name}:{role}" for user, name, role in PEOPLE]
    links = [f"--link={assignment}:{assignment_title(assignment)}" for assignment in ASSIGNMENTS]
    _run([python, "-m", "django", "demo_course", COURSE, COURSE_TITLE, *people, *links], platform_env,
         "the LMS's course")
    service = [python, "-m", "autograder", "service"]
    _run([*service, "migrate"], demo.service_env(), "the service's database")
    url = demo.platform_url
    _run([*service, "lti", "register", PLATFORM_NAME, "--issuer", url, "--client-id", CLIENT_ID, "--login-url",
          f"{url}/authorize", "--token-url", f"{url}/token", "--jwks-url", f"{url}/jwks", "--deployment",
          DEPLOYMENT_ID], demo.service_env(), "registering the LMS at the service")


def _start(demo: Demo, workers: int) -> dict[str, subprocess.Popen]:
    """The LMS under gunicorn and the service under serve, each in a session of its own (Ctrl-C
    reaches this process only, which stops them in turn), their output in their logs."""
    started = {}
    with (demo.folder / "platform.log").open("ab") as log:
        started["the stand-in LMS"] = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "autograder.service.lti.demo_platform.wsgi:application", "--bind",
             f"127.0.0.1:{demo.platform_port}", "--workers", "2", "--timeout", "60", "--graceful-timeout", "2"],
            env=demo.platform_env(), stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    with (demo.folder / "service.log").open("ab") as log:
        started["the service"] = subprocess.Popen(
            [sys.executable, "-m", "autograder", "serve", "--port", str(demo.service_port), "--workers", str(workers)],
            env=demo.service_env(), stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    return started


def _answers(url: str) -> bool:
    with contextlib.suppress(urllib.error.URLError, OSError), urllib.request.urlopen(url, timeout=5) as answer:
        return answer.status == 200
    return False


def _wait_ready(demo: Demo, started: dict[str, subprocess.Popen]) -> None:
    deadline = time.monotonic() + READY_SECONDS
    while not (_answers(demo.platform_url + "/jwks") and _answers(demo.service_url + "/")):
        for name, process in started.items():
            if process.poll() is not None:
                raise DemoError(f"{name} stopped while starting (exit status {process.returncode}); see its log in"
                                f" {demo.folder}")
        if time.monotonic() > deadline:
            raise DemoError(f"the demo did not start in {READY_SECONDS} s; see the logs in {demo.folder}")
        time.sleep(0.3)


def _stop(started: dict[str, subprocess.Popen]) -> list[str]:
    """SIGTERM to each (serve stops its own children), a kill after 30 s; what did not stop cleanly."""
    for process in started.values():
        if process.poll() is None:
            process.terminate()
    unclean = []
    for name, process in started.items():
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            unclean.append(f"{name} (killed after 30 s)")
        else:
            if process.returncode not in (0, -signal.SIGTERM):
                unclean.append(f"{name} (exit status {process.returncode})")
    return unclean


def addresses(demo: Demo) -> list[str]:
    """What the demo prints once both servers answer: where each person starts."""
    lines = [f"The LTI demo runs; its data and logs are in {demo.folder}.",
             f"  The stand-in LMS: {demo.platform_url}/ (its course, with a launch button per link and person)",
             f"  The service: {demo.service_url}/ (registered there as the platform {PLATFORM_NAME!r})",
             f"Open as each person of the course {COURSE_TITLE!r} (signs in at the LMS; then click a link to launch):"]
    for user, name, role in PEOPLE:
        lines.append(f"  {role.lower()} {user} ({name}): {demo.platform_url}/enter/{COURSE}/{user}")
    lines += [f"  (at the service they are {', '.join(user for user, _, _ in PEOPLE)}, or name@{PLATFORM_NAME} when"
              " that user name is taken: see docs/service/lti.md)",
              f"  the course's gradebook at the LMS (the scores sent back): {demo.platform_url}/gradebook/{COURSE}",
              "Ctrl-C stops both."]
    return lines


def run(folder: Path | None, service_port: int, platform_port: int, workers: int = 1) -> int:
    """The demo, until Ctrl-C or SIGTERM: 0 when both servers stopped cleanly."""
    if folder is None:
        folder = Path(tempfile.mkdtemp(prefix="attention-kit-lti-demo-"))
        folder.chmod(0o755)  # as root, serve's web user must reach service/ inside (serve guards service/ itself)
    demo = Demo(folder, service_port, platform_port)
    demo.folder.mkdir(parents=True, exist_ok=True)
    stop = threading.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: stop.set())
    started: dict[str, subprocess.Popen] = {}
    try:
        print(f"Preparing the LTI demo in {demo.folder} ...", flush=True)
        prepare(demo)
        started = _start(demo, workers)
        _wait_ready(demo, started)
        print("\n".join(addresses(demo)), flush=True)
        while not stop.wait(0.5):
            for name, process in started.items():
                if process.poll() is not None:
                    raise DemoError(f"{name} stopped (exit status {process.returncode}); see its log in {demo.folder}")
    except DemoError as error:
        print(f"lti demo: {error}", file=sys.stderr, flush=True)
        _stop(started)
        return 1
    unclean = _stop(started)
    for line in unclean:
        print(f"{line} did not stop cleanly", file=sys.stderr, flush=True)
    if not unclean:
        print("The LTI demo stopped: the LMS and the service exited cleanly.", flush=True)
    return 1 if unclean else 0
