"""Fixtures shared by the kit's test modules; the rule that a test is marked for what it starts;
and how the suite shares a machine's cores.

``make test-fast`` leaves out the tests marked ``live``, ``browser``, ``container`` or ``slow``.
A test that starts a live server, Chromium or a container without its marker would slip into the
fast loop and slow it down, so the helpers that start them refuse to, from an unmarked test, with
the marker to add (a module-scoped fixture counts for the test that first asks for it).

``make test`` runs the suite on several pytest-xdist workers, each test file on one of them, the
heaviest first, each process on one thread (tests/worker_groups.py).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import container
import pytest
from lti_harness import LivePlatform
from meta_class import graded  # noqa: F401 - the meta-class, graded once per session
from service_harness import CHROMIUM, CHROMIUM_ARGS, LiveService
from worker_groups import one_thread_each, pytest_collection_modifyitems  # noqa: F401 - a hook: each file on one worker

from autograder.grading import markers
from tools.scratch_postgres import ScratchPostgres

try:
    from playwright.sync_api import BrowserType, sync_playwright
except ModuleNotFoundError:  # a GPU node with grading's dependencies only (make gpu-wheels) runs no browser test
    BrowserType = sync_playwright = None


def pytest_configure(config):
    one_thread_each()
    markers.declare(config)  # the stage markers, from the curriculum (--strict-markers is on)

# The test being run (set up, called, torn down), for the helpers that check its markers.
_running: list[pytest.Item] = []


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None):
    _running.append(item)
    try:
        return (yield)
    finally:
        _running.pop()


def _needs_marker(marker: str, what: str, start: Callable) -> Callable:
    """``start``, refusing to run for a test that is not marked ``marker``."""

    @functools.wraps(start)
    def guarded(*args, **kwargs):
        if _running and _running[-1].get_closest_marker(marker) is None:
            pytest.fail(f"{_running[-1].nodeid} starts {what}: mark it @pytest.mark.{marker}"
                        " (make test-fast leaves such tests out)", pytrace=False)
        return start(*args, **kwargs)

    return guarded


LiveService.start = _needs_marker("live", "the submission service", LiveService.start)
LivePlatform.start = _needs_marker("live", "the stand-in LMS", LivePlatform.start)
ScratchPostgres.start = _needs_marker("live", "a PostgreSQL server", ScratchPostgres.start)
if BrowserType is not None:
    BrowserType.launch = _needs_marker("browser", "Chromium", BrowserType.launch)
container.fresh_cgroups = _needs_marker("container", "a container's cgroups", container.fresh_cgroups)


@pytest.fixture(scope="module")
def browser():
    """One Chromium per test file; each test opens its own context or page in it."""
    if sync_playwright is None:
        pytest.fail("Playwright is not installed here: run `make setup` for the browser tests", pytrace=False)
    with sync_playwright() as driver:
        chromium = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def postgres():
    """One throwaway PostgreSQL server on loopback for the session (``new_database`` per service)."""
    with ScratchPostgres() as server:
        yield server


@pytest.fixture(scope="session")
def service_data(tmp_path_factory):
    """Django on the kit's settings, in this process, over a fresh data folder whose database is
    migrated: one per session, as Django is set up once per process (the test files that use it
    share it, so each makes its own users). The environment is put back afterwards."""
    data = tmp_path_factory.mktemp("service-data")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("KIT_SERVICE_DATA", str(data))  # read once, when Django loads the settings
        patch.setenv("DJANGO_SETTINGS_MODULE", "autograder.service.settings")
        import django
        from django.conf import settings

        django.setup()
        assert str(settings.CONFIG.data_dir) == str(data), "Django was set up before, on another data folder"
        from django.core.management import call_command

        call_command("migrate", verbosity=0, interactive=False)
        yield data
