"""Run a stage's public check and say, in the notebook's language, how it went; give its hint
only when the student asks for it."""

from __future__ import annotations

import difflib
import inspect
from collections.abc import Mapping
from dataclasses import dataclass

import torch

from .. import language as languages
from ..curriculum import assignment_of
from .catalog import hint_text, speaking, text
from .expectations import Mismatch, one_line
from .registry import CHECKS, FIRST_HINTS


@dataclass(frozen=True)
class CheckResult:
    """The outcome of one public check: ``message`` is the line shown to the student; ``hint``,
    when the check found something to fix, is what ``hint("<stage>")`` shows."""

    passed: bool
    message: str
    hint: str | None = None


def run_check(stage: str | None, namespace: Mapping, language: str | None = None) -> CheckResult:
    """Run the public check of `stage` on the definitions in `namespace`; never raises.

    The message is in `language` (en, zh, pt); by default in the language of the notebook whose
    kernel runs this (see ``language.kernel_language``).
    """
    with speaking(_language(stage, namespace, language)):
        return _run_check(stage, namespace)


def _language(stage: str | None, namespace: Mapping, language: str | None) -> str:
    if language is not None:
        return language
    return languages.kernel_language(namespace, assignment_of(stage) if stage in CHECKS else None)


def _run_check(stage: str | None, namespace: Mapping) -> CheckResult:
    if stage is None:
        return CheckResult(False, text("no_stage", example=next(iter(CHECKS)), known=", ".join(CHECKS)))
    if stage not in CHECKS:
        suggestion = nearest_stage(str(stage))
        detail = (text("unknown_stage_near", stage=stage, suggestion=suggestion) if suggestion
                  else text("unknown_stage", stage=stage, known=", ".join(CHECKS)))
        return CheckResult(False, text("failed", stage=stage, detail=detail))
    if stage not in namespace:
        detail = text("not_defined", stage=stage)
        return CheckResult(False, text("failed", stage=stage, detail=detail))
    hint = None
    try:
        # The checks seed torch freely; the student's own random stream is left as it was.
        with torch.random.fork_rng(devices=[]):
            CHECKS[stage](namespace)
    except Mismatch as mismatch:
        detail, hint = str(mismatch), mismatch.hint or hint_text(FIRST_HINTS[stage])
    except NotImplementedError as error:
        reason = one_line(error)
        if not reason or reason.startswith(f"{stage}:"):
            detail = text("not_implemented")
        else:
            detail = text("not_implemented_elsewhere", reason=reason)
    except Exception as error:  # whatever student code raises becomes one line
        detail = text("raised", error_type=type(error).__name__, error=one_line(error))
        hint = hint_text(FIRST_HINTS[stage])
    else:
        return CheckResult(True, text("passed", stage=stage))
    return CheckResult(False, text("failed", stage=stage, detail=detail), hint)


def nearest_stage(name: str) -> str | None:
    """The stage a mistyped name most plausibly means (``causal_masks``, ``Softmax_Naive``), if any."""
    folded = [stage for stage in CHECKS if stage.lower() == name.lower()]
    close = folded or difflib.get_close_matches(name, list(CHECKS), n=1, cutoff=0.6)
    return close[0] if close else None


def hint_line(stage: str | None, namespace: Mapping, language: str | None = None) -> str:
    """What ``hint(stage)`` prints: the fix for what the check finds now, the stage's first hint
    when there is nothing to diagnose yet (not written), or that no hint is needed."""
    result = run_check(stage, namespace, language)
    with speaking(_language(stage, namespace, language)):
        if result.passed:
            return text("hint_passed", stage=stage)
        if stage not in CHECKS:  # no stage, or an unknown one: the message says which exist
            return result.message
        return text("hint_line", stage=stage, hint=result.hint or hint_text(FIRST_HINTS[stage]))


def _callers_globals() -> Mapping:
    """The globals of the code (the notebook) that called the public function calling this."""
    caller = inspect.currentframe().f_back.f_back
    return caller.f_globals if caller is not None else {}


def check(stage: str | None = None, namespace: Mapping | None = None, language: str | None = None) -> None:
    """Print one line saying whether `stage` passes its public check, in `language` (by default
    the notebook's, see `run_check`), and, when it found something to fix, a second line offering
    the hint.

    Without `namespace`, the definitions are looked up in the caller's globals (the notebook).
    """
    namespace = _callers_globals() if namespace is None else namespace
    result = run_check(stage, namespace, language)
    print(result.message)
    if result.hint is not None:
        with speaking(_language(stage, namespace, language)):
            print(text("hint_offer", stage=stage))


def hint(stage: str | None = None, namespace: Mapping | None = None, language: str | None = None) -> None:
    """Print the hint for `stage` (see `hint_line`), in `language` (by default the notebook's).

    Without `namespace`, the definitions are looked up in the caller's globals (the notebook).
    """
    print(hint_line(stage, _callers_globals() if namespace is None else namespace, language))


class SelfChecks:
    """`check` and `hint` in one language: what a notebook's setup cell binds, as
    ``check = self_checks("zh")`` and ``hint = check.hint`` (a kernel on Colab cannot read its
    notebook to learn the language)."""

    def __init__(self, language: str | None = None):
        self.language = language if language in languages.LANGUAGES else None

    def __call__(self, stage: str | None = None, namespace: Mapping | None = None) -> None:
        """Run the public check of `stage` (see `check`)."""
        check(stage, _callers_globals() if namespace is None else namespace, self.language)

    def hint(self, stage: str | None = None, namespace: Mapping | None = None) -> None:
        """Print the hint for `stage` (see `hint`)."""
        hint(stage, _callers_globals() if namespace is None else namespace, self.language)


def self_checks(language: str | None = None) -> SelfChecks:
    """`check` speaking `language` (en, zh, pt), with `hint` as its method ``.hint``."""
    return SelfChecks(language)
