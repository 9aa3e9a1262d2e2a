"""What a grading shard reports to the grading command on its link: one typed message per kind.

A shard sends, in order, the trust its start-up checks proved, each finished submission (the
canaries' excepted), then the records of its share; or, at any point, why it stopped: the run
cannot be trusted, or the shard failed. The receivers (``autograder.grading.engine`` and the
service's warm grader) match them by type. They travel through ``multiprocessing``'s pickling
between the grader's own processes only (a shard and the command that started it), never from a
worker.
"""

from __future__ import annotations

from dataclasses import dataclass

from autograder.records.jobs import SubmissionRecord
from autograder.records.results import RunTrust
from autograder.records.submissions import SubmissionKey


@dataclass(frozen=True)
class TrustProved:
    """What the shard's start-up checks proved, before any submission is graded."""

    trust: RunTrust


@dataclass(frozen=True)
class SubmissionDone:
    """A student's notebook whose tests have all run (progress only: its record comes later)."""

    key: SubmissionKey


@dataclass(frozen=True)
class RecordsReady:
    """What the tests of every submission sent to the shard gave, canaries included."""

    records: dict[SubmissionKey, SubmissionRecord]


@dataclass(frozen=True)
class Untrusted:
    """The run cannot be trusted (a guarantee that must hold does not, a canary failed): no grades."""

    reason: str


@dataclass(frozen=True)
class ShardFailed:
    """The shard itself failed (the hidden tests could not run, the sandbox broke); ``reason`` is
    the error or the end of its traceback."""

    reason: str


ShardMessage = TrustProved | SubmissionDone | RecordsReady | Untrusted | ShardFailed
