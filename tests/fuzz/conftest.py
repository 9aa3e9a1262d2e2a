"""Fuzzing every student-controlled input on the trusted side, with Hypothesis (issue 31).

Two profiles: ``ci`` (the default, in ``make test``: a bounded number of examples per input) and
``fuzz`` (``make fuzz``: many more, in rounds with fresh seeds, for as long as it is given). Each
test counts the examples it tried; with ``FUZZ_COUNTS`` set, the counts are added to that JSON file.
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
settings.register_profile("ci", max_examples=40, deadline=None, suppress_health_check=_RELAXED, print_blob=True)
settings.register_profile("fuzz", max_examples=int(os.environ.get("FUZZ_EXAMPLES", "2000")), deadline=None,
                          suppress_health_check=_RELAXED, print_blob=True)
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
