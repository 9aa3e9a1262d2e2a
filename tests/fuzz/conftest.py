"""Fuzzing every student-controlled input on the trusted side, with Hypothesis (issue 31).

Two profiles: ``ci`` (the default, in ``make test``: a bounded number of examples per input, the
same ones in every run) and ``fuzz`` (``make fuzz``: many more, in rounds with fresh seeds, for as
long as it is given). ``ci`` is derandomised, so that a test that fails under ``make test`` fails
again on a rerun, and a change to the kit meets the examples its parent passed (until the test
itself changes): finding new examples is ``make fuzz``'s job, and what it finds becomes a regular
test. Each test counts the examples it tried; with ``FUZZ_COUNTS`` set, the counts are added to
that JSON file.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

_RELAXED = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture,
            HealthCheck.filter_too_much]
# derandomize: every run draws from a seed fixed per test (and keeps no example database), whatever
# --hypothesis-seed says; the fuzz profile must stay random for run_fuzz.py's seeds to count. Both
# say so outright: on a machine with CI set, Hypothesis's own defaults (every profile's parent) are
# derandomised, which would make every fuzz round draw the same examples.
settings.register_profile("ci", max_examples=40, deadline=None, suppress_health_check=_RELAXED, print_blob=True,
                          derandomize=True)
settings.register_profile("fuzz", max_examples=int(os.environ.get("FUZZ_EXAMPLES", "2000")), deadline=None,
                          suppress_health_check=_RELAXED, print_blob=True, derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

_tried: Counter[str] = Counter()


@pytest.fixture
def tried(request):
    """Call it once per example: the examples each input was fuzzed with, for ``make fuzz``'s figures."""
    name = request.node.originalname
    return lambda: _tried.update([name])


def pytest_sessionfinish(session) -> None:
    report = os.environ.get("FUZZ_COUNTS")
    if report and _tried:
        path = Path(report)
        counts = Counter(json.loads(path.read_text())) if path.exists() else Counter()
        counts.update(_tried)
        path.write_text(json.dumps(dict(sorted(counts.items())), indent=1) + "\n")
