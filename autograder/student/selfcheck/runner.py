"""Run a stage's public check and say, in the notebook's language, how it went; give its hints,
in tiers, only when the student asks for them, and say what a tier costs where it is offered when
the course charges for hints (``hint_prices``)."""

from __future__ import annotations

import difflib
import inspect
import types
from collections.abc import Mapping
from dataclasses import dataclass, replace

import torch

from .. import language as languages
from ..curriculum import CONSULTED, NOTEBOOK_DEFAULTS, STANDS_IN_FOR, all_stages, assignment_of
from ..hint_prices import price, prices_of
from ..reading.code_read import globals_kept, named_by_code, stages_called, state_kept
from ..reading.exceptions import definition_sources, read_raised, students_line
from ..records import TIERS, show
from . import inputs_kept, worth_fixing
from .answer_cell import defined_elsewhere
from .catalog import found_text, hint_text, remedy, speaking, text, tier_text, words_fix
from .expectations import Mismatch, one_line
from .figures import CAPTIONS, MistakeFigure, png, use_fonts
from .hints import DESIGNED
from .notebook_variables import read_from_other_cells, unreadable_definition
from .registry import CHECKS


@dataclass(frozen=True)
class CheckResult:
    """The outcome of one public check: ``message`` is the line shown to the student; ``hint``,
    when the check found something specific to fix, is what ``hint("<stage>")`` shows instead of
    the stage's idea; ``figure``, for a recognised mistake in attention weights, shows it."""

    passed: bool
    message: str
    hint: str | None = None
    figure: MistakeFigure | None = None
    found: bool = False  # the check found something to fix (not a stage left unwritten or unknown)
    finding: str = ""  # the key of what it found ("values", "shape", "raised"...): data, never shown
    mistake: str | None = None  # the id of the named mistake it names, if any


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


def _run_check(stage: str | None, namespace: Mapping, checking: frozenset[str] = frozenset()) -> CheckResult:
    """``run_check``'s result; when the stage fails, it also says which of the pure function stages
    it calls of its own accord fail their own checks, which the grader stands correct code in for
    (``CONSULTED``): the check runs the student's own (``checking``: the stages whose checks are
    running already, which a stage calling back is not checked again for)."""
    result = _checked(stage, namespace)
    if result.passed or not result.found or stage not in CHECKS:
        return result
    checking = checking | {stage}
    called = [name for name in stages_called(stage, _sources(namespace), CONSULTED | STANDS_IN_FOR.get(stage, set()))
              if name in namespace and name not in checking]
    failing = [name for name in called if not _run_check(name, namespace, checking).passed]
    if not failing:
        return result
    # What the stage got wrong may be the called stages' (the grader stands correct code in for
    # them): the line names no mistake of the stage's own, and shows no figure of one.
    unnamed = _checked(stage, namespace, named=False)
    said = text("calls_failing_stage", stage=stage, stages=_listed(failing))
    # Chinese sentences follow one another with no space between them.
    space = "" if unnamed.message.endswith(("。", "！", "？", "）")) else " "
    return replace(unnamed, message=f"{unnamed.message}{space}{said}")


def _listed(names: list[str]) -> str:
    """Names as a list reads in the language spoken: "a, b and c"."""
    return names[0] if len(names) == 1 else text("list.and", first=", ".join(names[:-1]), last=names[-1])


def _checked(stage: str | None, namespace: Mapping, named: bool = True) -> CheckResult:
    """The check of ``stage`` alone (``named``: whether its line may name a mistake)."""
    if stage is None:
        return CheckResult(False, text("no_stage", example=next(iter(CHECKS)), known=", ".join(CHECKS)))
    if stage not in CHECKS:
        suggestion = nearest_stage(str(stage))
        detail = (text("unknown_stage_near", stage=stage, suggestion=suggestion) if suggestion
                  else text("unknown_stage", stage=stage, known=", ".join(CHECKS)))
        return CheckResult(False, text("failed", stage=stage, detail=detail))
    if stage not in namespace:
        unreadable = unreadable_definition(stage, namespace)
        detail = (text("not_defined_syntax", stage=stage, line=unreadable[0], error=unreadable[1]) if unreadable
                  else text("not_defined", stage=stage))
        return CheckResult(False, text("failed", stage=stage, detail=detail))
    outside, computed = read_from_other_cells(stage, namespace)
    if outside or computed:  # it runs here, and raises NameError where each answer cell is graded on its own
        detail = (text("reads_other_cells", stage=stage, names=", ".join(outside)) if outside
                  else text("reads_computed_values", stage=stage, names=", ".join(computed)))
        return CheckResult(False, text("failed", stage=stage, detail=detail), found=True, finding="raised")
    hint, figure, found, key, mistake, shows, also = None, None, True, "raised", None, None, ""
    watched, watch = inputs_kept.watched(namespace, stage)
    failure = ""  # what the check raised first, as text
    try:
        # The checks seed torch freely; the student's own random stream is left as it was.
        with torch.random.fork_rng(devices=[]), worth_fixing.collected() as notes:
            _run_public(stage, watched, watch)
    except Mismatch as mismatch:
        failure = _failure_text(mismatch)
        mismatch = _in_place_too(mismatch, watch)
        detail, hint, figure = str(mismatch), mismatch.hint, mismatch.figure
        key, mistake, shows, also = mismatch.key, mismatch.mistake, mismatch.shows, mismatch.also
        if mismatch.raised is not None:
            hint, mistake = _read(stage, mismatch.raised, hint, namespace)
            detail, shows = _where_raised(detail, mismatch.raised), mistake
        elif mistake is not None:  # a name from values must fit the code, as the grader's must
            read = named_by_code(mistake, stage, _sources(namespace))
            if read != mistake:
                mistake = shows = read
                hint, figure = hint_text(read) if read else None, None
    except NotImplementedError as error:
        reason = one_line(error)
        if not reason or reason.startswith(f"{stage}:"):
            detail = text("not_implemented")
        else:
            detail = text("not_implemented_elsewhere", reason=reason)
        found, key = False, "not_implemented"  # nothing written yet: no finding, the hints are the stage's own
    except Exception as error:  # noqa: BLE001 - whatever student code raises becomes one line
        failure = _failure_text(error)
        if isinstance(error, NameError) and error.name in all_stages() and error.name not in namespace:
            # A stage that calls one whose cell has not run yet (it may come further down): nothing to fix.
            detail, found, key = text("calls_undefined_stage", stage=stage, called=error.name), False, "not_defined"
        else:
            detail = _where_raised(text("raised", error_type=type(error).__name__, error=one_line(error)), error)
            hint, mistake = _read(stage, error, None, namespace)
            shows = mistake
    else:
        return CheckResult(True, "\n".join([text("passed", stage=stage), *_worth_fixing(notes)]))
    sources = _sources(namespace)
    kept, kept_outside = state_kept(stage, sources), globals_kept(stage, sources)
    if kept or kept_outside:  # as the grader tells it: state kept between calls, no name read from its symptom
        hint, figure, mistake, shows = None, None, None, None
        said = (text("state_between_calls", stage=stage, names=", ".join(f"self.{name}" for name in kept)) if kept
                else text("state_in_globals", stage=stage, names=", ".join(kept_outside)))
        also = " ".join(filter(None, (also, said)))
    changed = _changed_default(stage, namespace[stage]) if found else None
    if changed is not None:
        if _fails_otherwise_with_notebook_defaults(stage, namespace, failure):  # what it shows comes of the default
            hint, figure, mistake, shows = hint_text("default_changed"), None, "default_changed", "default_changed"
        also = " ".join(filter(None, (also, text("default_written", **changed))))
    if not named:
        mistake, shows, figure = None, None, None
    said = found_text(shows) if shows is not None else None
    detail = " ".join(filter(None, (text("likely", detail=detail, said=said) if said else detail, also,
                                    *_worth_fixing(notes))))
    return CheckResult(False, text("failed", stage=stage, detail=detail), hint, figure, found, key, mistake)


def _changed_default(stage: str, defined: object) -> dict[str, str] | None:
    """The first parameter whose default the student's ``stage`` (its ``__init__`` for a class)
    gives otherwise than the notebook's signature (``NOTEBOOK_DEFAULTS``), as the fields of
    ``default_written``; None when every default is the notebook's."""
    try:
        parameters = inspect.signature(defined).parameters
    except (TypeError, ValueError):
        return None
    for name, given in NOTEBOOK_DEFAULTS.get(stage, {}).items():
        written = parameters[name].default if name in parameters else inspect.Parameter.empty
        if written is not inspect.Parameter.empty and (type(written) is not type(given) or written != given):
            return {"parameter": name, "written": repr(written), "given": repr(given)}
    return None


def _run_public(stage: str, watched: Mapping, watch: inputs_kept.KeptInputs | None) -> None:
    """Run the stage's public check on ``watched`` (``inputs_kept.watched``); raise what it finds."""
    CHECKS[stage](watched)
    inputs_kept.expect_inputs_kept(watch)  # told last, as the grader tells it after the values


def _failure_text(error: Exception) -> str:
    """What a run of the check raised, to tell one run's first failure from another's."""
    return f"{type(error).__name__}: {error}"


def _fails_otherwise_with_notebook_defaults(stage: str, namespace: Mapping, failure: str) -> bool:
    """Whether the check's first failure (``failure``) goes once the student's ``stage`` (its
    ``__init__`` for a class) has the notebook's defaults, so that the failing call relied on the
    changed one: then that default is the mistake, as the grader names it where its failing call
    relied on it (blind29/073's training=False, whose other faults show later). Where the same
    failure stays, the default played no part in it, and is told beside what the values show (a sum
    over the whole tensor under a default dim=0: blind26/009)."""
    defined = namespace[stage]
    function = defined.__dict__.get("__init__") if isinstance(defined, type) else defined
    if not isinstance(function, types.FunctionType):
        return False
    notebook = NOTEBOOK_DEFAULTS.get(stage, {})
    positional = [parameter for parameter in inspect.signature(function).parameters.values()
                  if parameter.kind is parameter.POSITIONAL_OR_KEYWORD and parameter.default is not parameter.empty]
    written = function.__defaults__, function.__kwdefaults__
    try:
        function.__defaults__ = tuple(notebook.get(parameter.name, parameter.default) for parameter in positional)
        if function.__kwdefaults__:
            function.__kwdefaults__ = {name: notebook.get(name, value)
                                       for name, value in function.__kwdefaults__.items()}
        watched, watch = inputs_kept.watched(namespace, stage)
        with torch.random.fork_rng(devices=[]), worth_fixing.collected():
            _run_public(stage, watched, watch)
    except Exception as error:  # noqa: BLE001 - the student's code again, with other defaults
        return _failure_text(error) != failure
    else:
        return True
    finally:
        function.__defaults__, function.__kwdefaults__ = written


def _in_place_too(mismatch: Mismatch, watch: inputs_kept.KeptInputs | None) -> Mismatch:
    """Wrong values that name no mistake, from a call that also changed its input in place, say
    that change after them, as the grader tells both faults (a loop writing into x reads its own
    results back; a hard-coded size may be wrong too), and offer its fix as the hint."""
    if mismatch.mistake is not None or mismatch.raised is not None or watch is None or watch.changed is None:
        return mismatch
    try:
        inputs_kept.expect_inputs_kept(watch)
    except Mismatch as in_place:
        said = f"{in_place} {found_text('input_modified_in_place')}"
        return Mismatch(str(mismatch), in_place.hint, mismatch.figure, mismatch.key, None,
                        also=" ".join(filter(None, (mismatch.also, said))))
    return mismatch


def _worth_fixing(notes: list[str]) -> list[str]:
    """The check's notes worth fixing, said in one sentence after its verdict (none: nothing)."""
    return [text("worth_fixing", notes=" ".join(notes))] if notes else []


def _where_raised(detail: str, error: BaseException) -> str:
    """``detail``, the line saying what the student's code raised, with the line of theirs it came from."""
    line = students_line(error)
    return text("raised_at", detail=detail, line=line) if line else detail


def _sources(namespace: Mapping) -> list[str]:
    """The code of the cells the notebook's functions and classes were written in, as the grader
    reads the student's definitions."""
    return definition_sources(namespace.values())


def _read(stage: str, error: BaseException, hint: str | None, namespace: Mapping) -> tuple[str | None, str | None]:
    """The hint and the named mistake of an exception the student's code raised: the mistake the
    grader's own reading names (``reading``), else ``hint`` (the check's, naming nothing)."""
    mistake = read_raised(stage, error, list(namespace.values())).mistake
    return (hint_text(mistake), mistake) if mistake is not None else (hint, None)


def nearest_stage(name: str) -> str | None:
    """The stage a mistyped name most plausibly means (``causal_masks``, ``Softmax_Naive``), if any."""
    folded = [stage for stage in CHECKS if stage.lower() == name.lower()]
    close = folded or difflib.get_close_matches(name, list(CHECKS), n=1, cutoff=0.6)
    return close[0] if close else None


def hint_line(stage: str | None, namespace: Mapping, language: str | None = None, tier: int = 1) -> str:
    """What ``hint(stage, tier)`` shows: tier 1 in words only, what to fix when the check names a
    mistake whose fix holds no code (not on a stage the student designs, ``DESIGNED``: there a fix
    is a recipe), else the stage's idea (never the check's own "Likely mistake"
    again: the student has just read it; for a mistake whose fix shows code, its fix in words), tier 2
    the tools, by name; tier 3 the full text of what
    the check finds (its fix), labelled as such, then a skeleton of the code to complete. On a
    stage that passes, every tier says no hint is needed. Without a stage, or with an unknown one,
    the check's message says which stages exist."""
    return _hint(stage, namespace, language, tier)[0]


def _hint(stage: str | None, namespace: Mapping, language: str | None, tier: int) -> tuple[str, bool]:
    """``hint_line``'s text, and whether it opened a tier (what the notebook keeps, and a course
    that charges for hints counts): not for a stage that passes, nor for a tier that does not exist."""
    language = _language(stage, namespace, language)
    if stage not in CHECKS:
        return run_check(stage, namespace, language).message, False
    with speaking(language):
        if tier not in range(1, TIERS + 1):
            return text("hint_tiers", stage=stage, tier=tier), False
        result = run_check(stage, namespace, language)
        if result.passed:
            return text("hint_passed", stage=stage), False
        if tier == 2:
            return text("hint_line", stage=stage, tier=2, hint=tier_text(stage, 2)) + "\n" + _offer(stage, 3), True
        if tier == 3:  # what the check found comes first, apart from the skeleton, so it never reads as code
            found = text("hint_found", finding=result.hint) + "\n\n" if result.hint else ""
            return found + text("hint_code", stage=stage) + "\n\n" + tier_text(stage, 3), True
        said = tier_text(stage, 1) if stage in DESIGNED else (
            (remedy(result.hint) if result.hint else None) or words_fix(result.mistake) or tier_text(stage, 1))
        return text("hint_line", stage=stage, tier=1, hint=said) + "\n" + _offer(stage, 2), True


def _offer(stage: str, tier: int) -> str:
    """The line that offers the next tier, with its price when the course charges for it."""
    cost = price(stage, tier)
    return text(f"hint_more.{tier}", stage=stage) + (text("hint_cost", points=f"{cost:g}") if cost else "")


def _callers_globals() -> Mapping:
    """The globals of the code (the notebook) that called the public function calling this."""
    caller = inspect.currentframe().f_back.f_back
    return caller.f_globals if caller is not None else {}


def _show_figure(figure: MistakeFigure, language: str) -> None:
    """Show the figure of a recognised mistake under the check's line: as a PNG image in a notebook
    (drawn off-screen, so it appears on the first check, before any plot), as its caption in words
    elsewhere (a terminal, a script)."""
    with speaking(language):
        try:
            from IPython import get_ipython
            from IPython.display import Image, display
        except ImportError:
            get_ipython = None
        if get_ipython is None or get_ipython() is None:
            print("   📊 " + text(CAPTIONS[figure.mistake]))
            return
        use_fonts(language)
        display(Image(data=png(figure, text), format="png"))


def check(stage: str | None = None, namespace: Mapping | None = None, language: str | None = None) -> None:
    """Print one line saying whether `stage` passes its public check, in `language` (by default
    the notebook's, see `run_check`), and when it fails what it found: the values, where they
    differ, the line of the student's that raised, and what a named mistake looks like in one
    sentence (its fix waits for `hint`); when it found something to fix, a second line offering
    the hints, and, for a recognised mistake in attention weights, its figure. When the saved
    notebook shows that the definition it ran sits outside the stage's ✏️ cell, which the grader
    ignores, a line says so (``answer_cell``).

    Without `namespace`, the definitions are looked up in the caller's globals (the notebook).
    """
    namespace = _callers_globals() if namespace is None else namespace
    language = _language(stage, namespace, language)
    result = run_check(stage, namespace, language)
    print(result.message)
    # The stage and the stages it calls: a scratch cell redefining a called stage changes this
    # check's result, and the grader ignores it.
    ran = [stage, *stages_called(stage, _sources(namespace), CONSULTED)] if stage in CHECKS else []
    for name in dict.fromkeys(ran):
        elsewhere = defined_elsewhere(name, namespace)
        if elsewhere is not None:
            with speaking(language):
                print(text("defined_elsewhere", stage=name, line=elsewhere))
    if result.found:
        with speaking(language):
            print(text("hint_offer", stage=stage))
            prices = prices_of(stage)
            if any(prices):
                print(text("hint_prices", **{f"tier{tier}": f"{points:g}" for tier, points in enumerate(prices, 1)}))
    if result.figure is not None:
        _show_figure(result.figure, language)


def hint(stage: str | None = None, tier: int = 1, namespace: Mapping | None = None,
         language: str | None = None) -> None:
    """Show the hint of `stage` at `tier` (see `hint_line`), in `language` (by default the
    notebook's), and keep in the notebook which tier was opened.

    Without `namespace`, the definitions are looked up in the caller's globals (the notebook).
    """
    namespace = _callers_globals() if namespace is None else namespace
    line, opened = _hint(stage, namespace, language, tier)
    if opened:
        show(line, {"hint": {"stage": stage, "tier": tier}})
    else:
        print(line)


class SelfChecks:
    """`check` and `hint` in one language: what a notebook's setup cell binds (a kernel on Colab
    cannot read its notebook to learn the language)."""

    def __init__(self, language: str | None = None):
        self.language = language if language in languages.LANGUAGES else None

    def __call__(self, stage: str | None = None, namespace: Mapping | None = None) -> None:
        """Run the public check of `stage` (see `check`)."""
        check(stage, _callers_globals() if namespace is None else namespace, self.language)

    def hint(self, stage: str | None = None, tier: int = 1, namespace: Mapping | None = None) -> None:
        """Show the hint of `stage` at `tier`, 1 to 3 (see `hint`)."""
        hint(stage, tier, _callers_globals() if namespace is None else namespace, self.language)


def self_checks(language: str | None = None) -> SelfChecks:
    """`check` speaking `language` (en, zh, pt), with `hint` as its method ``.hint``."""
    return SelfChecks(language)
