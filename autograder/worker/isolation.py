"""How well a worker is confined: the level it reached, as a named value.

The worker reports it in its first frame, before any student code runs (the only frame the
grader believes about the sandbox); the grader keeps it with each graded row.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class IsolationLevel(StrEnum):
    """From strongest to weakest."""

    FULL = "namespaces+unprivileged-user"  # root grader: namespaces and a user of its own
    NAMESPACES_AS_ROOT = "namespaces (as root)"  # namespaces, but no uid was given to drop to
    USER_NAMESPACE = "namespaces (user namespace)"  # unprivileged grader: a user namespace
    LIMITS_ONLY = "limits only"  # no namespaces (a container without CAP_SYS_ADMIN)


@dataclass(frozen=True)
class Isolation:
    """A level and, where it is weaker than it could be, what it lacks and why."""

    level: IsolationLevel
    detail: str = ""

    @property
    def full(self) -> bool:
        return self.level is IsolationLevel.FULL

    def __str__(self) -> str:
        return f"{self.level.value}{self.detail}"

    def to_json(self) -> dict:
        return {"level": self.level.value, "detail": self.detail}

    @classmethod
    def from_json(cls, data: object, max_chars: int = 200) -> Isolation:
        """Read an isolation report (ValueError when it is not one); its detail is cut short."""
        if not isinstance(data, dict):
            raise ValueError("an isolation report must be an object")
        return cls(IsolationLevel(data.get("level")), str(data.get("detail", ""))[:max_chars])
