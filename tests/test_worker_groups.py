"""make test's workers keep each test file, and each named group, on one worker (tests/worker_groups.py).

When they do not, nothing fails: every worker silently makes every heavy module fixture again
(notebooks executed, a class graded), and make test takes twice as long. So this runs the rule in
a pytest of its own, on two workers, and looks at where each test ran.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

TESTS = Path(__file__).resolve().parent
PER_FILE = 12  # enough that a scheduler which ignores groups puts some of them on each worker


def _test_file(shared_group: bool) -> str:
    mark = '@pytest.mark.xdist_group("shared")\n' if shared_group else ""
    return (
        "import os, pytest\n\n"
        f"{mark}@pytest.mark.parametrize('n', range({PER_FILE}))\n"
        "def test_where(n, request):\n"
        "    with open(os.environ['WHERE_LOG'], 'a') as log:\n"
        "        log.write(f\"{request.node.path.name} {os.environ['PYTEST_XDIST_WORKER']}\\n\")\n"
    )


def _without_pytests_own(environment) -> dict[str, str]:
    """The environment less what this pytest's own xdist worker set (PYTEST_XDIST_WORKER and kin)."""
    return {key: value for key, value in environment.items() if not key.startswith("PYTEST_")}


def test_each_file_and_each_named_group_runs_on_one_worker(tmp_path):
    (tmp_path / "conftest.py").write_text(
        f"import sys\nsys.path.insert(0, {str(TESTS)!r})\n"
        "from worker_groups import pytest_collection_modifyitems  # noqa: F401\n")
    for name in ("test_alone_a.py", "test_alone_b.py"):
        (tmp_path / name).write_text(_test_file(shared_group=False))
    for name in ("test_shared_a.py", "test_shared_b.py"):
        (tmp_path / name).write_text(_test_file(shared_group=True))
    log = tmp_path / "where.log"
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "2",
                          "--dist", "loadgroup", "--rootdir", str(tmp_path), str(tmp_path)],
                         cwd=tmp_path, env={**_without_pytests_own(os.environ), "WHERE_LOG": str(log)},
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    workers = defaultdict(set)
    for line in log.read_text().splitlines():
        file_name, worker = line.split()
        workers["shared" if file_name.startswith("test_shared") else file_name].add(worker)
    assert set(workers) == {"test_alone_a.py", "test_alone_b.py", "shared"}
    split = {group: sorted(where) for group, where in workers.items() if len(where) > 1}
    assert not split, (f"these groups ran on more than one worker, so their module fixtures were made on each: "
                       f"{split}. Is pytest-xdist's loadgroup broken by this pytest (pytest-xdist#1386)?")


def test_the_longest_groups_named_first_exist():
    """A renamed file left in LONGEST_FIRST would quietly go back to being sent whenever its turn came."""
    from worker_groups import LONGEST_FIRST

    named_groups = {match for path in TESTS.rglob("test_*.py")
                    for match in re.findall(r'xdist_group\("([^"]+)"\)', path.read_text(encoding="utf-8"))}
    missing = [name for name in LONGEST_FIRST if not (TESTS.parent / name).is_file() and name not in named_groups]
    assert not missing, f"LONGEST_FIRST in tests/worker_groups.py names groups that are gone: {missing}"
