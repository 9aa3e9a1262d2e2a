"""The service's settings hold (docs/service/settings.md): one order for every setting (flag, then
environment, then settings file, then default), shown with where each value came from and secrets
masked; a settings file's base_url is the address the service answers to and the one its links
carry; the commands that print links refuse a built-in default that would lead nowhere; and
``make serve`` takes PORT and DATA."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
import requests
from service_harness import LiveService, free_port

from autograder.paths import KIT_ROOT

SECRET_KEY = "a-secret-key-that-must-never-be-printed-0123456789"
DB_PASSWORD = "pw-never-printed"
METRICS_TOKEN = "a-metrics-token-never-printed"


def _run(*args: str, env: dict[str, str], check: bool = False) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, "-m", "autograder", *args], cwd=KIT_ROOT, env=env, capture_output=True,
                          text=True, timeout=120)
    if check:
        assert done.returncode == 0, done.stdout + done.stderr
    return done


def _bare_environment(tmp_path, **variables: str) -> dict[str, str]:
    """This process's environment without any KIT_SERVICE_ variable, plus ``variables``."""
    clean = {key: value for key, value in os.environ.items() if not key.startswith("KIT_SERVICE_")}
    return {**clean, "KIT_SERVICE_DATA": str(tmp_path / "data"), **variables}


def _shown(output: str) -> dict[str, tuple[str, str]]:
    """``--show-config``'s lines: setting -> (value, where it came from)."""
    rows = {}
    for line in output.splitlines():
        name, _, rest = line.partition("  ")
        if " <- " in rest:
            value, _, origin = rest.strip().partition(" <- ")
            rows[name] = (value.strip(), origin.strip())
    return rows


def test_each_setting_resolves_flag_then_environment_then_file_then_default_and_shows_where(tmp_path):
    settings = tmp_path / "service.toml"
    settings.write_text('base_url = "https://grader.example.edu"\nport = 8100\nmax_upload_mb = 3\n'
                        f'database_url = "postgresql://kit:{DB_PASSWORD}@db.example.edu:5432/kit"\n'
                        "session_hours = 8\n")
    env = _bare_environment(tmp_path, KIT_SERVICE_PORT="8200", KIT_SERVICE_MAX_UPLOAD_MB="4",
                            KIT_SERVICE_SECRET_KEY=SECRET_KEY, KIT_SERVICE_METRICS_TOKEN=METRICS_TOKEN)
    for command in (["serve", "--config", str(settings), "--max-upload-mb", "6", "--show-config"],
                    ["service", "--config", str(settings), "--max-upload-mb", "6", "config"]):
        done = _run(*command, env=env, check=True)
        shown = _shown(done.stdout)
        assert shown["max_upload_mb"] == ("6", "command line --max-upload-mb")  # the flag beats all
        assert shown["port"] == ("8200", "environment KIT_SERVICE_PORT")  # the environment beats the file
        assert shown["base_url"] == ("https://grader.example.edu", f"settings file {settings}")
        assert shown["session_hours"] == ("8", f"settings file {settings}")
        assert shown["signin_link_days"] == ("30", "default")
        assert shown["allowed_hosts"][0] == "127.0.0.1,grader.example.edu,localhost"
        assert shown["secret_key"] == ("****", "environment KIT_SERVICE_SECRET_KEY")
        assert shown["database_url"][0] == "postgresql://kit:****@db.example.edu:5432/kit"
        assert SECRET_KEY not in done.stdout
        assert DB_PASSWORD not in done.stdout
        assert shown["metrics_token"] == ("****", "environment KIT_SERVICE_METRICS_TOKEN")
        assert METRICS_TOKEN not in done.stdout
        assert not (tmp_path / "data").exists()  # showing the settings makes nothing


def test_a_settings_file_with_a_typo_or_the_secret_key_is_refused_saying_why(tmp_path):
    typo = tmp_path / "typo.toml"
    typo.write_text('baseurl = "https://grader.example.edu"\n')
    done = _run("serve", "--config", str(typo), "--show-config", env=_bare_environment(tmp_path))
    assert done.returncode == 2
    assert "unknown settings baseurl" in done.stderr
    assert "base_url" in done.stderr
    key = tmp_path / "key.toml"
    key.write_text('secret_key = "in the file"\n')
    done = _run("service", "--config", str(key), "config", env=_bare_environment(tmp_path))
    assert done.returncode == 2
    assert "KIT_SERVICE_SECRET_KEY" in done.stderr



def test_service_commands_use_the_kits_settings_whatever_django_settings_module_the_shell_holds(tmp_path):
    """A shell that worked on another Django project keeps its DJANGO_SETTINGS_MODULE: the kit's
    commands set it aside (one line says so) rather than fail to import someone else's settings."""
    env = _bare_environment(tmp_path, DJANGO_SETTINGS_MODULE="someone.elses.settings")
    for command in (["service", "migrate"], ["service", "status"]):
        done = _run(*command, env=env)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "Traceback" not in done.stderr
        assert len(done.stderr.splitlines()) <= 1, done.stderr
    assert "queue: {'queued': 0, 'running': 0, 'done': 0}" in done.stdout
    assert (tmp_path / "data" / "service.sqlite3").is_file()  # the kit's own database, where its settings put it

@pytest.mark.live
def test_serve_answers_to_the_settings_files_base_url_and_its_links_carry_it(tmp_path):
    port = free_port()
    public = f"http://kit-public.test:{port}"
    settings = tmp_path / "service.toml"
    settings.write_text(f'base_url = "{public}"\nport = {port}\n')
    live = LiveService(workers=0, base_url=None, serve_args=("--config", str(settings)))
    live.port, live.url = port, f"http://127.0.0.1:{port}"
    try:
        live.start(wait_for_worker=False)
        answer = requests.get(live.url + "/", headers={"Host": f"kit-public.test:{port}"}, timeout=30)
        assert answer.status_code == 200  # the public name is served, not refused as a bad host
        assert f"Serving on {public}" in live.log.read_text()
        assert "Course time zone: UTC (due times typed without an offset are read in it" in live.log.read_text()
        roster = live.root / "roster.csv"
        roster.write_text("student_id\nalma\n")
        link = live.cli("--config", str(settings), "links", str(roster)).stdout.strip().splitlines()[-1].split(",")[-1]
        assert link.startswith(f"{public}/signin/")
        assert live.cli("--config", str(settings), "instructor", "ida").stdout.startswith(f"{public}/signin/")
        assert f"{public}/lti/launch" in live.cli("--config", str(settings), "lti", "show").stdout
    finally:
        live.close()


@pytest.mark.live
def test_link_commands_refuse_the_default_base_url_while_the_service_listens_elsewhere(tmp_path):
    live = LiveService(workers=0, base_url=None)  # listens on a free port, and no base_url anywhere
    try:
        live.start(wait_for_worker=False)
        roster = live.root / "roster.csv"
        roster.write_text("student_id\nbo\n")
        for command in (["links", str(roster)], ["instructor", "ida"], ["lti", "show"]):
            done = live.cli(*command, check=False)
            assert done.returncode == 2, command
            assert "/signin/" not in done.stdout
            assert f"serve listens on 127.0.0.1:{live.port}" in done.stderr
            assert "--base-url URL, KIT_SERVICE_BASE_URL=URL, or base_url" in done.stderr
        on_all_addresses = live.cli("--host", "0.0.0.0", "--port", str(live.port), "links", str(roster), check=False)
        assert on_all_addresses.returncode == 2
        assert "listens on 0.0.0.0, which is no address to give people" in on_all_addresses.stderr
        given = live.cli("--base-url", "https://grader.example.edu", "links", str(roster))
        assert given.stdout.strip().splitlines()[-1].split(",")[-1].startswith("https://grader.example.edu/signin/")
    finally:
        live.close()


def test_make_serve_takes_port_and_data():
    done = subprocess.run(["make", "-n", "serve", "PORT=9123", "DATA=/srv/kit-data"], cwd=KIT_ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    [command] = [line for line in done.stdout.splitlines() if "autograder serve" in line]
    assert "--port 9123" in command
    assert "--data /srv/kit-data" in command
