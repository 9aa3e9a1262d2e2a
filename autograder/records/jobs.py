"""What grading works on and what it hands between processes: options, submissions ready for
their tests, a shard's job, and what the tests of one submission gave.

Plain data, no torch: the grading command's own process stays light (it never imports torch);
torch lives in the fork server and in the shards it forks.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from autograder.findings.finding import Finding
from autograder.reading.notebook import ExtractedCode
from autograder.records.results import TestStatus
from autograder.records.submissions import SubmissionKey
from autograder.worker.config import SandboxConfig
from autograder.worker.isolation import Isolation, Targets
from autograder.worker.nvidia import CudaContext

ACCELERATORS = ("cuda", "mps")


@dataclass
class GradeOptions:
    """The knobs of ``python -m autograder grade``."""

    assignment: str | None = None
    jobs: int = 1
    timeout: float = 10.0
    device: str = "auto"  # auto | cpu | cuda
    memory_bytes: int = 4 * 2**30
    accept_readable_secrets: bool = False  # grade although student code could read them (UNSAFE_FLAG)


def tested_devices(device: str, present: dict[str, bool]) -> list[str]:
    """The devices the hidden tests run on: the CPU always, accelerators when asked and present."""
    if device == "cpu":
        return ["cpu"]
    return ["cpu"] + [name for name in ACCELERATORS if present.get(name)]


@dataclass
class PreparedSubmission:
    """A readable notebook waiting for its tests."""

    index: int  # unique in the run: names the submission's pytest parameter
    student_id: str
    assignment_id: str
    code: ExtractedCode
    canary: bool = False  # the reference solution, graded first to prove the path students take

    @property
    def key(self) -> SubmissionKey:
        return self.student_id, self.assignment_id

    @property
    def param_id(self) -> str:
        return f"submission{self.index}"


@dataclass
class ShardJob:
    """What one shard grades, on which devices, in which sandbox, and what it proves first."""

    slot: int
    submissions: list[PreparedSubmission]
    options: GradeOptions
    devices: list[str]
    sandbox: SandboxConfig | None = None  # None: no sandbox (the benchmark's floor)
    neighbour: SandboxConfig | None = None  # another user's (no other shard's), for "workers apart"
    targets: Targets | None = None  # what the guarantees are tried against
    keep_serving: bool = False  # after this job, grade further submissions sent on the link (the service)


@dataclass
class TestOutcome:
    """What one test instance gave for one submission."""

    __test__ = False  # not a pytest test class

    name: str
    function: str
    stage: str
    status: TestStatus
    finding: Finding | None = None
    device: str = "cpu"  # where the test ran; instances on an accelerator carry no points
    largest_difference: float | None = None  # the largest |answer - reference| its comparisons met


@dataclass
class SubmissionRecord:
    """Everything the tests of one submission gave."""

    outcomes: list[TestOutcome] = field(default_factory=list)
    recorded: set[str] = field(default_factory=set)  # names in outcomes, for a quick lookup
    isolation: Isolation | None = None
    load_problems: list[Finding] = field(default_factory=list)
    cuda: CudaContext | None = None  # the CUDA context its worker made (``doctor`` reports it)
    float32_settings: dict[str, str] = field(default_factory=dict)  # the references' (``worker.precision``)
