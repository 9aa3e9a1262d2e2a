"""What the kit writes down holds on every CPU: the public checks' known outputs are current by
value, not by their last digits, and the reference passes every public check and scores 100
under this machine's own kernels and under another instruction set's.

torch picks its float kernels by the CPU's instruction set, and kernels that add in another
order round differently in float32's last place. ``ATEN_CPU_CAPABILITY=default`` (no vector
kernels) with ``MKL_ENABLE_INSTRUCTIONS=SSE4_2`` makes this machine round as an older or another
CPU does, so a difference that would only show on someone else's machine shows here.
"""

from __future__ import annotations

import copy
import csv
import json
import os
import subprocess
import sys

import pytest

from autograder.notebooks import known_outputs
from autograder.notebooks.variants import load_solution, write_submission
from autograder.paths import KIT_ROOT
from autograder.student.curriculum import ASSIGNMENTS

OTHER_CPU = {"ATEN_CPU_CAPABILITY": "default", "MKL_ENABLE_INSTRUCTIONS": "SSE4_2"}
KERNELS = {"this CPU's kernels": {}, "another CPU's kernels": OTHER_CPU}


def test_the_known_outputs_of_the_public_checks_are_current():
    """known_outputs.json is written from the reference solutions and the catalogue of mistakes by
    `make assignments`: a change to either must be written out again."""
    assert known_outputs.stale() == [], "run `make assignments` (python -m autograder.notebooks.known_outputs)"


@pytest.fixture(scope="module")
def committed() -> dict:
    return json.loads(known_outputs.KNOWN_FILE.read_text(encoding="utf-8"))


def _nudged(outputs: dict, case: str, share_of_scale: float) -> dict:
    """``outputs`` with the first value of ``case``'s right output moved by a share of its scale."""
    nudged = copy.deepcopy(outputs)
    values = nudged["cases"][case]["expected"]
    row = values
    while isinstance(row[0], list):
        row = row[0]
    scale = max(abs(value) for value in _flat(values))
    row[0] += share_of_scale * scale
    return nudged


def _flat(values):
    for value in values:
        yield from _flat(value) if isinstance(value, list) else [value]


def test_freshness_forgives_float32_noise_and_nothing_else(committed):
    assert known_outputs.differences(committed, _nudged(committed, "CausalAttention", 2**-20)) == []
    assert known_outputs.differences(committed, _nudged(committed, "CausalAttention", 2**-12)) == [
        "CausalAttention: expected: values moved by 0.00024 of their scale, beyond float32's noise (1.5e-05)"]
    gone = copy.deepcopy(committed)
    del gone["cases"]["softmax/book"]["mistakes"]["softmax_wrong_dim"]
    assert known_outputs.differences(committed, gone) == ["softmax/book: mistake softmax_wrong_dim: gone"]
    reshaped = copy.deepcopy(committed)
    reshaped["cases"]["split_heads"]["expected"] = reshaped["cases"]["split_heads"]["expected"][:1]
    assert known_outputs.differences(committed, reshaped) == ["split_heads: expected: shape (2, 3, 5, 4) is now"
                                                              " (1, 3, 5, 4)"]
    overflowed = copy.deepcopy(committed)
    overflowed["cases"]["softmax/large"]["expected"][0][0] = float("nan")
    assert known_outputs.differences(committed, overflowed) == [
        "softmax/large: expected: a value became, or stopped being, inf or nan"]
    reworded = dict(committed, comment="edited by hand")
    assert known_outputs.differences(committed, reworded) == ["the comment changed"]


def test_regenerating_on_another_cpu_leaves_a_current_file_as_it_is(committed, tmp_path, monkeypatch, capsys):
    """Another CPU's last digits are no change: `make assignments` there must not churn the file."""
    noisy = known_outputs.rendered(_nudged(committed, "MultiHeadAttention", 2**-20))
    monkeypatch.setattr(known_outputs, "KNOWN_FILE", tmp_path / "known_outputs.json")
    known_outputs.KNOWN_FILE.write_text(noisy, encoding="utf-8")
    assert known_outputs.main() == 0
    assert known_outputs.KNOWN_FILE.read_text(encoding="utf-8") == noisy
    assert "is current" in capsys.readouterr().out
    known_outputs.KNOWN_FILE.write_text(known_outputs.rendered(_nudged(committed, "MultiHeadAttention", 2**-10)))
    assert known_outputs.main() == 0
    assert known_outputs.stale() == []
    assert "wrote" in capsys.readouterr().out


def test_a_mistake_too_close_to_the_right_output_to_call_the_same_everywhere_is_refused():
    import torch

    right = torch.tensor([[0.25, 0.75], [0.5, 0.5]])
    far, noise, unclear = right.flip(-1), right + 1e-7, right + 4 * known_outputs.FLOAT32_NOISE * 0.75
    kept = known_outputs._distinct(right, {"far": [far], "noise": [noise]})
    assert list(kept) == ["far"]
    with pytest.raises(ValueError, match="too close to tell apart the same way on every CPU"):
        known_outputs._distinct(right, {"unclear": [unclear]})


# What the child process does under the kernels it was given: the capability torch chose, then
# whether the committed known outputs are current there.
_KNOWN_OUTPUTS_THERE = (
    "import json, torch\n"
    "from autograder.notebooks import known_outputs\n"
    "torch.set_num_threads(1)\n"
    "print(json.dumps({'capability': torch.backends.cpu.get_cpu_capability(), 'stale': known_outputs.stale()}))\n"
)
_FORK_SERVER_THERE = (
    "import json\n"
    "from autograder.sandbox.forkserver import ForkServer\n"
    "server = ForkServer()\n"
    "print(json.dumps(server.machine['cpu_capability']))\n"
    "server.close()\n"
)


def _run(args: list[str], environment: dict, cwd=KIT_ROOT, timeout: int = 900) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=cwd, env={**os.environ, **environment}, capture_output=True, text=True,
                          timeout=timeout)


def _capability(environment: dict) -> str:
    found = _run([sys.executable, "-c", "import torch; print(torch.backends.cpu.get_cpu_capability())"], environment)
    return found.stdout.strip()


@pytest.mark.slow
@pytest.mark.parametrize("environment", KERNELS.values(), ids=KERNELS.keys())
def test_known_outputs_public_checks_and_hidden_tests_hold_under_these_kernels(environment, tmp_path):
    capability = _capability(environment)
    if environment:
        assert capability == "DEFAULT", "the simulated CPU was not simulated: torch ignored ATEN_CPU_CAPABILITY"

    there = _run([sys.executable, "-c", _KNOWN_OUTPUTS_THERE], environment)
    assert there.returncode == 0, there.stderr
    assert json.loads(there.stdout) == {"capability": capability, "stale": []}

    checks = _run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=",
                   "tests/test_selfcheck.py::test_solution_passes"], environment)
    assert checks.returncode == 0, checks.stdout[-3000:]
    assert f"{sum(1 for _ in _solution_stages())} passed" in checks.stdout

    server = _run([sys.executable, "-c", _FORK_SERVER_THERE], environment)
    assert json.loads(server.stdout) == capability, server.stderr  # the workers' torch rounds as this one's

    submitted = tmp_path / "submitted"
    for assignment_id in ASSIGNMENTS:
        write_submission(submitted, "reference", assignment_id, load_solution(assignment_id))
    graded = _run([sys.executable, "-m", "autograder", "grade", str(submitted), "--out", str(tmp_path / "out"),
                   "--jobs", "2", "--fail-under", "100"], environment)
    assert graded.returncode == 0, graded.stdout[-3000:] + graded.stderr[-3000:]
    with open(tmp_path / "out" / "grades.csv", newline="", encoding="utf-8") as grades:
        rows = list(csv.DictReader(grades))
    assert {row["assignment_id"]: float(row["score"]) for row in rows} == dict.fromkeys(ASSIGNMENTS, 100.0)


def _solution_stages():
    from autograder.student.curriculum import STAGES_BY_ASSIGNMENT

    for stages in STAGES_BY_ASSIGNMENT.values():
        yield from stages
