"""How well a worker is confined: the level it reached, each layer applied or missing, and the
guarantees the grader proved from real workers before grading (``autograder.sandbox.guarantees``).

A worker reports its isolation in its first frame, before any student code runs (the only
frame the grader believes about the sandbox); the grader keeps it with each graded row and
names it, and any guarantee that does not hold, in the summary and grades.csv.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from autograder.worker.compat import StrEnum
from autograder.worker.text import clean_text


class IsolationLevel(StrEnum):
    """From strongest to weakest."""

    FULL = "namespaces+unprivileged-user"  # root grader: namespaces and a user of its own
    NAMESPACES_AS_ROOT = "namespaces (as root)"  # namespaces, but no uid was given to drop to
    USER_NAMESPACE = "namespaces (user namespace)"  # unprivileged grader: a user namespace
    LIMITS_ONLY = "limits only"  # no namespaces (a container without CAP_SYS_ADMIN)


class Layer(StrEnum):
    """One confinement mechanism (SECURITY.md says what each defends)."""

    NAMESPACES = "namespaces"  # mount, PID, network and IPC
    OWN_USER = "unprivileged user"
    LANDLOCK_FILES = "landlock files"
    LANDLOCK_NETWORK = "landlock network"
    LANDLOCK_SCOPE = "landlock signals and sockets"
    SECCOMP = "seccomp"
    CGROUPS = "cgroups"  # memory (shared and kernel memory included) and processes, per worker
    MEMORY_LIMIT = "memory limit"  # missing only for a CUDA worker without cgroups (no RLIMIT_AS either)


@dataclass(frozen=True)
class Isolation:
    """A level, the layers applied, and the layers that could not be, with why."""

    level: IsolationLevel
    layers: tuple[Layer, ...] = ()
    missing: tuple[tuple[Layer, str], ...] = ()

    @property
    def full(self) -> bool:
        """Namespaces and a user of its own (layers that add to those may still be missing)."""
        return self.level is IsolationLevel.FULL

    def __str__(self) -> str:
        """``limits only, with unprivileged user, seccomp (no namespaces: Operation not permitted)``."""
        text = self.level.value
        extra = [layer.value for layer in self.layers if layer is not Layer.NAMESPACES]
        if extra and self.level is not IsolationLevel.FULL:
            text += ", with " + ", ".join(extra)
        if self.missing:
            text += " (" + "; ".join(f"no {layer.value}: {why}" for layer, why in self.missing) + ")"
        return text

    def to_json(self) -> dict:
        return {"level": self.level.value, "layers": [layer.value for layer in self.layers],
                "missing": [[layer.value, why] for layer, why in self.missing]}

    @classmethod
    def from_json(cls, data: object, max_chars: int = 200) -> Isolation:
        """Read an isolation report (ValueError when it is not one); reasons are cut short."""
        if not isinstance(data, dict) or not isinstance(data.get("layers"), list) \
                or not isinstance(data.get("missing"), list):
            raise ValueError("an isolation report must be an object with layers and missing ones")
        missing = tuple((Layer(layer), clean_text(str(why), max_chars)) for layer, why in data["missing"])
        return cls(IsolationLevel(data.get("level")), tuple(Layer(layer) for layer in data["layers"]), missing)


class Guarantee(StrEnum):
    """What student code must not be able to do, proved before grading."""

    SECRETS_UNREADABLE = "secrets unreadable"  # solutions, hidden tests, rubric, other students' work, outputs
    OUTPUTS_UNWRITABLE = "outputs unwritable"  # and the submissions and the kit
    NO_NETWORK = "no network"  # no TCP connection, even to 127.0.0.1
    NO_SIGNALS = "no signals"  # to the grader or its fork server
    WORKERS_APART = "workers apart"  # no worker sees another's files


@dataclass(frozen=True)
class GuaranteeReport:
    """Which guarantees hold, and for each one that does not, what the worker managed."""

    held: tuple[Guarantee, ...]
    broken: tuple[tuple[Guarantee, str], ...]
    # Files of the Python installation the worker could not read: correct code would fail there.
    unreadable_python: tuple[str, ...] = ()

    def holds(self, guarantee: Guarantee) -> bool:
        return guarantee in self.held

    def broken_text(self) -> str:
        return "; ".join(f"{guarantee.value} ({what})" for guarantee, what in self.broken)


@dataclass(frozen=True)
class Targets:
    """What the guarantees are tried against: files no student may read, folders no student may
    write into, processes no student may signal."""

    secrets: list[str]
    protected: list[str]
    pids: list[int]
    python_files: list[str] = field(default_factory=list)  # which every worker must be able to read
