"""No deadline stuck behind one notebook: a grading worker claims one notebook at a time, so a
notebook that loops until its time runs out holds up no other student's while another worker is
free (issue 42; the mixed rush of ``make bench-serve`` measures the same at scale)."""

from __future__ import annotations

import json
import re

import pytest
from service_harness import LiveService, notebook_bytes

from autograder.notebooks.variants import with_answer

pytestmark = pytest.mark.live

ASSIGNMENT = "01_attention_scores"
ENDLESS = "import torch\n\ndef softmax_naive(x, dim=-1):\n    while True:\n        pass\n"


def _endless_notebook() -> bytes:
    notebook = json.loads(notebook_bytes("ada_full_marks", ASSIGNMENT, run="endless"))
    return json.dumps(with_answer(notebook, "softmax_naive", ENDLESS)).encode()


def test_correct_notebooks_queued_behind_an_endless_loop_are_graded_by_the_other_worker():
    # A per-test limit of 30 s: the loop holds its worker that long (or longer, on a busy machine),
    # well beyond the time two workers that start together take to be ready one after the other.
    live = LiveService(workers=0, test_timeout="30").start()
    try:
        live.link_for("looping")
        live.link_for("prompt")
        looping, prompt = (live.cli("token", student).stdout.strip() for student in ("looping", "prompt"))
        # All three wait in the queue before any worker runs, as at a deadline: the loop first.
        loop_id = live.api_submit(looping, ASSIGNMENT, _endless_notebook()).json()["id"]
        correct_ids = [live.api_submit(prompt, ASSIGNMENT, notebook_bytes("ada_full_marks", ASSIGNMENT, run=run))
                       .json()["id"] for run in range(2)]
        live.separate = [None, None]
        for index in range(2):
            live.start_separate_worker(index)
        for submission in correct_ids:
            assert live.wait_graded(prompt, submission, timeout=300)["score"] == 100
        [(loop_worker, loop_state, loop_finished)] = live.query(
            "SELECT worker_id, state, finished_at FROM service_grading WHERE submission_id = ?", loop_id)
        correct = live.query("SELECT worker_id, finished_at FROM service_grading WHERE submission_id IN (?, ?)",
                             *correct_ids)
        assert loop_worker, "no worker took the looping notebook"
        # The other worker graded both, while the loop still ran (or before it ended).
        assert all(worker != loop_worker for worker, _ in correct), (loop_worker, correct)
        assert loop_state == "running" or all(finished < loop_finished for _, finished in correct)
        # Each job is one line of its worker's log: which submission, which worker, how long, what came of it.
        logs = "".join((live.root / f"worker-{index}.log").read_text() for index in range(2))
        for submission in correct_ids:
            assert re.search(rf"^grading job submission={submission} .* seconds=[\d.]+ outcome=graded$", logs,
                             re.MULTILINE), logs[-3000:]
    finally:
        live.close()
