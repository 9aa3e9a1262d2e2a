"""What a hidden test observed besides its verdict: notes that cost nothing, and the largest
difference between an answer and its reference.

The comparisons (``autograder.hidden.compare``) record them while a test runs, in the trusted
process that runs the test; the grading plugin takes them when it records the test's outcome,
so each test's observations are its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from autograder.findings.finding import Finding


@dataclass
class Observations:
    """One test's notes (findings that cost no points) and the largest difference it compared."""

    notes: list[Finding] = field(default_factory=list)
    largest_difference: float | None = None


_current = Observations()


def note(found: Finding) -> None:
    """Record a note for the running test (once, however many comparisons find it)."""
    if found not in _current.notes:
        _current.notes.append(found)


def difference(value: float) -> None:
    """Record the largest absolute difference of one comparison of the running test."""
    if _current.largest_difference is None or value > _current.largest_difference:
        _current.largest_difference = value


def take() -> Observations:
    """The running test's observations, and a fresh start for the next test."""
    global _current
    taken, _current = _current, Observations()
    return taken


def restore(observed: Observations) -> None:
    """Make ``observed`` the running test's observations again (a test run twice keeps its first
    run's: ``grading.repairs``)."""
    global _current
    _current = observed
