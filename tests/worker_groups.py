"""How ``make test`` shares the machine's cores.

Every process of the suite computes on one thread (``one_thread_each``): the suite already runs
TEST_WORKERS pytest workers, and two notebook kernels beside each, on a machine of two cores, and
torch's threads spin-wait against each other when there are more of them than cores (on two
cores, a notebook's training cell took twenty times longer with two threads each than with one).

The pytest-xdist workers (``--dist loadgroup``) are given one group per test file,
so that a module's fixtures (a live service, notebooks executed once) are made once; files that
share a session's fixture name one ``xdist_group`` (the meta-class: ``meta-class``) so that it too
is made once. The longest groups are sent first, then the other heavy files (slow, live, browser,
container), so that no worker is left with a long one at the end.

pytest-xdist carries each test's group to its scheduler inside the test's node id. pytest 9.2
builds node ids in a way that xdist 3.8 cannot write to, so there every group is silently ignored
and each worker makes every module fixture again (pytest-dev/pytest-xdist#1386): pyproject.toml
keeps pytest below 9.2 for the kit's tests, and tests/test_worker_groups.py fails when groups are
not kept, whatever the cause.
"""

from __future__ import annotations

import os

import pytest

HEAVY = ("slow", "live", "browser", "container")
# The groups that take longest, longest first (``make test``'s durations, 2026-11-28: 4 to 12 minutes
# each on two cores), sent before every other: started last, one of them would leave a worker alone
# for its last ten minutes. Only the order depends on this list; a stale one costs time, not tests.
LONGEST_FIRST = ("tests/test_student_package.py", "tests/test_service_recovery.py", "tests/test_service_operations.py",
                 "tests/test_feedback_batches.py", "meta-class", "tests/test_service_http.py",
                 # issue 43's live files (a demo LMS, notebook kernels, Chromium): several minutes each
                 "tests/test_service_lti_demo.py", "tests/test_submit_from_notebook.py",
                 "tests/test_service_gradebook_browser.py", "tests/test_service_style.py")


def one_thread_each() -> None:
    """One thread for this process's torch, and for every process it starts (kernels, the CLI)."""
    import torch  # here, so that tests/test_worker_groups.py's small sessions need not load it

    os.environ["OMP_NUM_THREADS"] = os.environ["MKL_NUM_THREADS"] = "1"
    torch.set_num_threads(1)


def group(item: pytest.Item) -> str:
    marker = item.get_closest_marker("xdist_group")
    return str(marker.args[0] if marker.args else marker.kwargs["name"])


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(item.path.relative_to(config.rootpath).as_posix()))
    heavy = {group(item) for item in items if any(item.get_closest_marker(marker) for marker in HEAVY)}
    longest = {name: rank for rank, name in enumerate(LONGEST_FIRST)}
    # stable: each file keeps its order
    items.sort(key=lambda item: (longest.get(group(item), len(longest)), group(item) not in heavy))
