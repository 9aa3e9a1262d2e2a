"""Run a stage's public check and say, in one line and in the notebook's language, how it went."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import torch

from .. import language as languages
from ..curriculum import assignment_of
from .catalog import speaking, text
from .expectations import Mismatch, one_line
from .registry import CHECKS


@dataclass(frozen=True)
class CheckResult:
    """The outcome of one public check; `message` is the line shown to the student."""

    passed: bool
    message: str


def run_check(stage: str, namespace: Mapping, language: str | None = None) -> CheckResult:
    """Run the public check of `stage` on the definitions in `namespace`; never raises.

    The message is in `language` (en, zh, pt); by default in the language of the notebook whose
    kernel runs this (see ``language.kernel_language``).
    """
    if language is None:
        assignment_id = assignment_of(stage) if stage in CHECKS else None
        language = languages.kernel_language(namespace, assignment_id)
    with speaking(language):
        return _run_check(stage, namespace)


def _run_check(stage: str, namespace: Mapping) -> CheckResult:
    if stage not in CHECKS:
        detail = text("unknown_stage", stage=stage, known=", ".join(CHECKS))
        return CheckResult(False, text("failed", stage=stage, detail=detail))
    if stage not in namespace:
        detail = text("not_defined", stage=stage)
        return CheckResult(False, text("failed", stage=stage, detail=detail))
    try:
        # The checks seed torch freely; the student's own random stream is left as it was.
        with torch.random.fork_rng(devices=[]):
            CHECKS[stage](namespace)
    except Mismatch as mismatch:
        detail = str(mismatch)
    except NotImplementedError as error:
        reason = one_line(error)
        if not reason or reason.startswith(f"{stage}:"):
            detail = text("not_implemented")
        else:
            detail = text("not_implemented_elsewhere", reason=reason)
    except Exception as error:  # whatever student code raises becomes one line
        detail = text("raised", error_type=type(error).__name__, error=one_line(error))
    else:
        return CheckResult(True, text("passed", stage=stage))
    return CheckResult(False, text("failed", stage=stage, detail=detail))


def check(stage: str, namespace: Mapping | None = None, language: str | None = None) -> None:
    """Print one line saying whether `stage` passes its public check, in `language` (by default
    the notebook's, see `run_check`).

    Without `namespace`, the definitions are looked up in the caller's globals (the notebook).
    """
    if namespace is None:
        caller = inspect.currentframe().f_back
        namespace = caller.f_globals if caller is not None else {}
    print(run_check(stage, namespace, language).message)


def self_checks(language: str | None = None) -> Callable[..., None]:
    """`check`, speaking `language` (en, zh, pt): what a notebook's setup cell binds to `check`,
    since a kernel on Colab cannot read its notebook to learn the language."""
    chosen = language if language in languages.LANGUAGES else None

    def check_in_language(stage: str, namespace: Mapping | None = None) -> None:
        if namespace is None:
            caller = inspect.currentframe().f_back
            namespace = caller.f_globals if caller is not None else {}
        check(stage, namespace, chosen)

    return check_in_language
