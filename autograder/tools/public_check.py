"""Run the public check (``check("<stage>")`` of the student package) on a batch's answers, in a
process of their own: what ``feedback_batch`` compares with the grader's finding.

    python -m autograder.tools.public_check < answers.json

The input is a JSON list of answers of one assignment, each ``{"assignment", "stage", "source"}``
(the stage's whole answer cell). Each is put into the solution notebook of its assignment (every
other stage stays the reference's), its definitions are loaded as the grader's worker loads
them, and the stage's check runs on them, in English, within ``ANSWER_TIMEOUT_S``. One JSON line
per answer, in order, goes to stdout: ``passed``, ``message``, ``finding`` (the key of what the
check found) and ``mistake`` (the named mistake, or null). What the answers print goes to stderr.

The batch is trusted test data, so the answers run here, unconfined: the caller runs this in a
fresh process with a timeout of its own (``check_answers``), never in a grading process.
"""

from __future__ import annotations

import contextlib
import json
import signal
import subprocess
import sys
from dataclasses import asdict, dataclass

ANSWER_TIMEOUT_S = 60


@dataclass(frozen=True)
class CheckOutcome:
    """What the public check said of one answer."""

    passed: bool
    message: str
    finding: str  # the key of what it found ("values", "raised"...; "timeout" when it did not finish)
    mistake: str | None  # the named mistake it names


class _TooLong(BaseException):
    """An answer's check ran past its time (a BaseException: the check's own ``except Exception``
    must not turn it into a finding)."""


def _on_alarm(signum, frame):
    raise _TooLong


def check_one(assignment: str, stage: str, source: str) -> CheckOutcome:
    """The public check of ``stage`` on the solution notebook of ``assignment`` with ``source`` as
    the stage's answer cell."""
    from autograder.notebooks.variants import load_solution, with_answer
    from autograder.reading.notebook import extract_definitions
    from autograder.student.selfcheck import run_check
    from autograder.worker.probe_server import load_definitions

    code = extract_definitions(with_answer(load_solution(assignment), stage, source))
    signal.signal(signal.SIGALRM, _on_alarm)
    signal.alarm(ANSWER_TIMEOUT_S)
    try:
        with contextlib.redirect_stdout(sys.stderr):
            namespace, _ = load_definitions([vars(block) for block in code.blocks])
            result = run_check(stage, namespace, "en")
    except _TooLong:
        return CheckOutcome(False, f"the check did not finish within {ANSWER_TIMEOUT_S} s", "timeout", None)
    finally:
        signal.alarm(0)
    return CheckOutcome(result.passed, result.message, result.finding, result.mistake)


def check_answers(answers: list[dict], timeout_s: float) -> list[CheckOutcome]:
    """The public check's outcome for each answer, run in a fresh process of this module; answers
    that got no outcome before ``timeout_s`` (or before the process died) say so."""
    try:
        done = subprocess.run([sys.executable, "-m", __name__], input=json.dumps(answers), capture_output=True,
                              text=True, timeout=timeout_s)
        lines, why = done.stdout.splitlines(), f"the check's process ended with status {done.returncode}"
    except subprocess.TimeoutExpired as expired:
        output = expired.stdout or ""
        lines = (output.decode() if isinstance(output, bytes) else output).splitlines()
        why = f"the check's process ran past {timeout_s:g} s"
    outcomes = [CheckOutcome(**json.loads(line)) for line in lines if line.startswith("{")]
    missing = CheckOutcome(False, why, "no_result", None)
    return outcomes + [missing] * (len(answers) - len(outcomes))


def main() -> int:
    # What the checks import lazily (the stand-in GPU's fake tensors bring in torch._dynamo) is
    # imported before any alarm runs: an answer's timeout that lands inside an import leaves the
    # module half made for every answer after it.
    import torch._dynamo
    import torch._subclasses.fake_tensor  # noqa: F401
    for answer in json.load(sys.stdin):
        outcome = check_one(answer["assignment"], answer["stage"], answer["source"])
        print(json.dumps(asdict(outcome), ensure_ascii=False), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
