"""Least privilege for the web process (autograder/service/privileges.py): started as root, serve
runs its web workers as a system user of their own (made when missing), never root nor the shared
`nobody`; that user owns the data folder (0700) and the secret key (0600), which `nobody` cannot
read; the grading workers' scratch folders are root's, apart from the web's. And the root
fallback's imports never hide an error."""

from __future__ import annotations

import os
import pwd
import shutil
import stat
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import psutil
import pytest
from service_harness import LiveService

from autograder.paths import KIT_ROOT

WEB_USER = "attention-kit"

as_root = pytest.mark.skipif(os.geteuid() != 0, reason="serve leaves root only when started as root")


def _as(user: str, command: list[str]) -> subprocess.CompletedProcess:
    """Run ``command`` as ``user``, as another daemon of that account would."""
    entry = pwd.getpwnam(user)

    def become() -> None:
        os.setgroups([])
        os.setgid(entry.pw_gid)
        os.setuid(entry.pw_uid)

    return subprocess.run(command, preexec_fn=become, capture_output=True, text=True, timeout=30)


@pytest.fixture(scope="module")
def service():
    """A service with a grading worker, whose temporary folder (TMPDIR) is its own, to be looked into."""
    temp = Path(tempfile.mkdtemp(prefix="kit-privileges-test-tmp-"))
    temp.chmod(0o1777)  # as /tmp
    live = LiveService(workers=1, environment={"TMPDIR": str(temp)})
    live.temp = temp
    try:
        yield live.start()
    finally:
        live.close()
        shutil.rmtree(temp, ignore_errors=True)


@as_root
@pytest.mark.live
def test_started_as_root_the_web_runs_as_its_own_user_who_alone_owns_the_data(service):
    user = pwd.getpwnam(WEB_USER)
    assert user.pw_uid not in (0, pwd.getpwnam("nobody").pw_uid)
    processes = service.web_processes()
    assert len(processes) >= 2  # gunicorn's arbiter and its workers
    for process in processes:
        assert set(process.uids()) == {user.pw_uid}, process
        assert set(process.gids()) == {user.pw_gid}, process
    for path, mode in ((service.data, 0o700), (service.data / "secret_key", 0o600), (service.data / "tmp", 0o700)):
        info = path.stat()
        assert (info.st_uid, info.st_gid) == (user.pw_uid, user.pw_gid), path
        assert stat.S_IMODE(info.st_mode) == mode, path
    database = service.data / "service.sqlite3"
    assert database.stat().st_uid == user.pw_uid


@as_root
@pytest.mark.live
def test_nobody_cannot_read_the_secret_key(service):
    key = service.data / "secret_key"
    assert key.read_text().strip()  # root can
    tried = _as("nobody", ["cat", str(key)])
    assert tried.returncode != 0
    assert "Permission denied" in tried.stderr
    assert tried.stdout == ""


@as_root
@pytest.mark.live
def test_the_grading_workers_scratch_is_roots_and_apart_from_the_webs(service):
    [(_, pid)] = service.ready_workers()
    assert psutil.Process(pid).uids().real == 0
    scratch = list(service.temp.glob("attention-kit-service-*"))  # the warm grader's (grader/warm.py)
    assert scratch
    for folder in scratch:
        info = folder.stat()
        assert info.st_uid == 0
        assert stat.S_IMODE(info.st_mode) == 0o700
    web_files = [path for path in service.data.rglob("*") if "attention-kit-service-" in path.name]
    assert web_files == []
    assert _as(WEB_USER, ["ls", str(scratch[0])]).returncode != 0  # the web's user cannot look inside


@as_root
def test_serve_refuses_the_shared_nobody_account(tmp_path):
    env = {**os.environ, "KIT_SERVICE_DATA": str(tmp_path / "data"), "KIT_SERVICE_WEB_USER": "nobody"}
    done = subprocess.run([sys.executable, "-m", "autograder", "serve", "--workers", "0", "--port", "1"],
                          cwd=KIT_ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert "an account other daemons share" in done.stderr
    assert not (tmp_path / "data" / "secret_key").exists()


def test_the_root_fallback_never_hides_an_import_error(tmp_path):
    """The warm-up that imports everything before leaving root names a module that fails, and stops."""
    package = tmp_path / "kit_fallback_probe"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "fine.py").write_text("VALUE = 1\n")
    (package / "broken.py").write_text("import this_module_does_not_exist_anywhere_in_the_kit\n")
    (package / "typo.py").write_text("def f(:\n    pass\n")
    code = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(tmp_path)!r})
        from autograder.service.webserver import import_everything
        try:
            import_everything("kit_fallback_probe")
        except SystemExit as stop:
            print(stop)
        else:
            print("nothing reported")
    """)
    done = subprocess.run([sys.executable, "-c", code], cwd=KIT_ROOT, capture_output=True, text=True, timeout=120)
    assert "kit_fallback_probe.typo (SyntaxError" in done.stdout, done.stdout + done.stderr
    assert "kit_fallback_probe.broken (ModuleNotFoundError" in done.stdout
    assert "kit_fallback_probe.fine" not in done.stdout
