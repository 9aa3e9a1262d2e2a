"""``make test`` fuzzes with the same examples in every run; ``make fuzz`` draws new ones each round.

Each run is a fresh pytest process over one small property, with this folder's profiles
(conftest.py), started as ``make test`` starts it (no profile named) or as run_fuzz.py starts a
round (the ``fuzz`` profile and ``--hypothesis-seed``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

PROPERTY = '''
import os

from hypothesis import given, strategies as st


@given(st.binary(max_size=32))
def test_records_its_examples(value):
    with open(os.environ["EXAMPLES_FILE"], "a") as tried:
        tried.write(value.hex() + "\\n")
'''


@pytest.fixture
def run(tmp_path):
    """``run(*options, profile=None)``: the examples the property tried in one pytest run."""
    shutil.copy(Path(__file__).with_name("conftest.py"), tmp_path / "conftest.py")
    (tmp_path / "test_property.py").write_text(PROPERTY)
    runs = iter(range(100))

    def examples(*options: str, profile: str | None = None, on_ci: bool = False) -> list[str]:
        tried = tmp_path / f"run-{next(runs)}.txt"
        environment = {key: value for key, value in os.environ.items()
                       if not key.startswith(("HYPOTHESIS", "FUZZ")) and key != "CI"}
        if on_ci:  # Hypothesis's own defaults change where CI is set
            environment["CI"] = "true"
        # Hypothesis' plugin alone: the others take seconds to load and have no say in the examples.
        environment.update(EXAMPLES_FILE=str(tried), PYTEST_DISABLE_PLUGIN_AUTOLOAD="1")
        if profile:
            environment.update(HYPOTHESIS_PROFILE=profile, FUZZ_EXAMPLES="40")
        subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "hypothesispytest",
                        *options, "test_property.py"], cwd=tmp_path, env=environment, check=True, capture_output=True,
                       timeout=120)
        return tried.read_text().split()

    return examples


def test_make_tests_profile_tries_the_same_examples_in_every_run(run):
    first = run()
    assert len(set(first)) > 20
    assert run() == first
    assert run("--hypothesis-seed=7") == first  # a seed given by hand changes nothing either


@pytest.mark.parametrize("on_ci", [False, True], ids=["here", "on-ci"])
def test_make_fuzzs_rounds_draw_with_their_seeds(run, on_ci):
    first = run("--hypothesis-seed=1", profile="fuzz", on_ci=on_ci)
    assert run("--hypothesis-seed=1", profile="fuzz", on_ci=on_ci) == first  # a failing round can be rerun
    assert set(run("--hypothesis-seed=2", profile="fuzz", on_ci=on_ci)) != set(first)
