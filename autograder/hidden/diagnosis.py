"""What a wrong answer's values say happened, read in general forms before any catalogue match.

A student's mistake is rarely one of the known mistakes exactly (``autograder.hidden.wrong_outputs``):
it is near one. So when an answer fails, the hidden tests first ask its values what happened,
each *explainer* looking for one relation between the student's output and the reference's:

- every value is the reference's times one constant (and which sizes that constant could be);
- each row is the reference's times a factor of its own (rows not normalised);
- the values sum to 1 along another dim than the reference's (normalised along the wrong dim);
- the output is the softmax of the right result (normalised when it should not be);
- the right values in another order of axes, or in another shape;
- a square output right everywhere but on its diagonal;
- attention computed with the scores divided by another number (the divisor is fitted);
- earlier outputs that change when only later inputs change (the future leaks; a probe), or one
  sequence's outputs that change when only the others of its batch change (they are mixed), or
  later sequences' outputs that change when only the first changes (something carries over);
- every value 0.

An explainer returns an ``Explanation``: the evidence, a phrase that states what was found (with
the numbers), and the mistake it points to when the evidence points to one. ``conclude`` joins
the explainers' evidence with the catalogue's matches: a mistake is named only when one
explanation fits and no other points elsewhere; the evidence is shown either way, as a fact.
Inputs that tell explanations apart (zeros, ties, one-hot tokens) are the tests' own choice.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

import torch

from autograder.findings.finding import Finding, finding
from autograder.student.reading.capped_softmax import softmax_cap
from autograder.student.reading.differences import index_text, reordered, slices_that_differ

# Sizes the test used, by the name the notebook gives them (d_k, d_out, T...): the candidates a
# constant factor or a divisor is read as.
Sizes = Mapping[str, int]

# A factor or a divisor agrees with a form (sqrt(d_k), 1/64...) to this relative tolerance.
FORM_TOLERANCE = 1e-3
# The powers of a size that a scale may have been: a size, its square root, and their inverses.
_POWERS = ((1.0, "{name}"), (0.5, "sqrt({name})"), (-1.0, "1/{name}"), (-0.5, "1/sqrt({name})"), (2.0, "{name}²"))
# The largest whole number a hard-coded factor is read as the square root of (2.83 = sqrt(8)), and
# the largest a whole factor is read as the root of: a usual head size (8 = sqrt(64), GPT-2's), no
# more (16 = sqrt(256) was noise before a dropout's 1/16: review of notebook 3).
_LARGEST_PLAIN_NUMBER = 1024
_LARGEST_HEAD_SIZE = 64
# Sizes no scale is the square of: a batch's (4 = b², b = 2 was noise: review of notebook 3).
_NEVER_SQUARED = frozenset({"b"})
# At most this many factors of rows are quoted.
MAX_QUOTED = 6


@dataclass(frozen=True)
class Explanation:
    """What an answer's values show (``evidence``, an ``evidence.*`` phrase) and the mistake it
    points to, if it points to one."""

    evidence: Finding
    mistake: str | None = None
    # A fault of its own beside what the others explain, never their rival: the scale fitted with
    # the mask left out, when the output also sees the future (no mask, and another scale).
    separate: bool = False


# Reads one relation off (actual, expected), both float64 on the CPU: an Explanation, or None (or,
# for faults read together, a list of them: the first named, the others separate).
Explainer = Callable[[torch.Tensor, torch.Tensor], "Explanation | list[Explanation] | None"]


@dataclass(frozen=True)
class Conclusion:
    """The mistake to name (None when none, or several, fit) and the evidence to state."""

    mistake: str | None
    evidence: tuple[Finding, ...]
    faults: tuple[Explanation, ...] = ()  # separate faults, each stated as a finding of its own
    reproduced: bool = False  # the mistake is the catalogue's one exact match of the output


def conclude(catalogue: set[str], explanations: Sequence[Explanation]) -> Conclusion:
    """Join the catalogue's matches and the explanations: the catalogue's one match names the
    mistake (it reproduces the output exactly); otherwise the one mistake the explanations point
    to, unless they point to several. Every explanation's evidence is a fact and is stated (the
    first two), however many mistakes fit. A separate explanation is a further fault, never a
    rival: it is kept apart (``Conclusion.faults``)."""
    faults = tuple(explanation for explanation in explanations if explanation.separate)
    explanations = [explanation for explanation in explanations if not explanation.separate]
    evidence = tuple(explanation.evidence for explanation in explanations[:2])
    if catalogue:
        mistake = next(iter(catalogue)) if len(catalogue) == 1 else None
    else:
        pointed = {explanation.mistake for explanation in explanations if explanation.mistake}
        mistake = pointed.pop() if len(pointed) == 1 else None
    return Conclusion(mistake, evidence, tuple(fault for fault in faults if fault.mistake != mistake or not mistake),
                      reproduced=len(catalogue) == 1)


def faults_together(mistakes: Sequence[str], explanations: Sequence[Explanation]) -> Conclusion:
    """The conclusion for an answer that mistakes made together reproduce exactly (``mistakes``,
    in the order to fix them): the first is named, each other one is a fault of its own. Only
    what the pair needs is named: an explanation that points to another mistake (rows that no
    longer sum to 1, which a hidden row of NaN also gives) follows from the pair and is left out;
    the others' evidence is stated, each beside the mistake it points to."""
    together = finding("evidence.faults_together", count=len(mistakes))
    # An explainer that read the same faults together (``scores_divisor_beside``) says it once.
    kept = [explanation for explanation in explanations if explanation.mistake in (None, *mistakes)
            and explanation.evidence.key != together.key]
    first, *others = mistakes
    evidence = tuple(explanation.evidence for explanation in kept if not explanation.separate
                     and explanation.mistake in (None, first))[:2]

    def own_evidence(mistake: str) -> Finding:
        pointed = [explanation.evidence for explanation in kept if explanation.mistake == mistake]
        return pointed[0] if pointed else finding("evidence.one_of_faults_together")

    return Conclusion(first, (together, *evidence),
                      tuple(Explanation(own_evidence(mistake), mistake, separate=True) for mistake in others))


def explain(actual: torch.Tensor, expected: torch.Tensor, explainers: Iterable[Explainer]) -> list[Explanation]:
    """The explanations that fit, in the explainers' order; an explainer that cannot judge these
    values (a NaN, a shape it does not handle) is silent."""
    if actual.device.type == "meta" or expected.device.type == "meta" or not expected.is_floating_point():
        return []
    actual, expected = actual.detach().cpu().double(), expected.detach().cpu().double()
    found = []
    for explainer in explainers:
        try:
            explanation = explainer(actual, expected)
        except (RuntimeError, ValueError, IndexError):  # shapes this explainer cannot relate
            explanation = None
        if isinstance(explanation, list):
            found.extend(explanation)
        elif explanation is not None:
            found.append(explanation)
    return found


# -- numbers as a student reads them ---------------------------------------------------------------
def _close(value: float, target: float) -> bool:
    return math.isclose(value, target, rel_tol=FORM_TOLERANCE)


def number_text(value: float) -> str:
    """A factor as a student writes it: 8, 0.5, 1/64, 2.83."""
    if value != 0 and abs(value) < 1 and _close(1 / abs(value), round(1 / abs(value))) and round(1 / abs(value)) > 1:
        return f"{'-' if value < 0 else ''}1/{round(1 / abs(value))}"
    return f"{value:.4g}"


def size_forms(value: float, sizes: Sizes) -> list[str]:
    """The sizes (and their square roots and inverses) that ``value`` equals, as text: "sqrt(d_k),
    d_k = 4"; failing those, the square root or square it is of a whole number (8 = sqrt(64))."""
    if value <= 0 or not math.isfinite(value):
        return []
    forms = [f"{template.format(name=name)}, {name} = {size}" for name, size in sizes.items() if size > 1
             for power, template in _POWERS if _close(value, size**power)
             and not (power == 2.0 and name in _NEVER_SQUARED)]
    if forms:
        return forms
    inverse = value < 1
    target = 1 / value if inverse else value
    squared = target * target
    whole = _close(target, round(target))
    if whole and round(target) >= 4 and round(squared) <= _LARGEST_HEAD_SIZE and _power_of_two(round(squared)):
        text = f"sqrt({round(squared)})"  # a whole number: the root of a usual head size (8 = sqrt(64))
    elif not whole and _close(squared, round(squared)) and 2 <= round(squared) <= _LARGEST_PLAIN_NUMBER:
        text = f"sqrt({round(squared)})"  # the square root of a whole number (2.83 = sqrt(8))
    else:
        return []
    return [f"1/{text}" if inverse else text]


def _power_of_two(number: int) -> bool:
    return number > 0 and number & (number - 1) == 0


def _forms_field(value: float, sizes: Sizes) -> Finding:
    forms = size_forms(value, sizes)
    return finding("evidence.forms", forms=" or ".join(forms)) if forms else finding("evidence.no_forms")


def _divisor_forms(divisor: float, d_k: int, sizes: Sizes) -> Finding:
    """The sizes a divisor of the scores could be, and first what ``d_k ** 1/2`` gives (2·d_k, or
    d_k/2 in brackets, unless that is 1 or sqrt(d_k) itself): the half power read as a division
    binds there, not a whole number's root."""
    if d_k > 1 and _close(divisor, 1 / math.sqrt(d_k)):  # the right scale, multiplied: no other size is meant
        return finding("evidence.forms", forms=f"1/sqrt(d_k), d_k = {d_k}")
    halves = [(f"2·d_k, d_k = {d_k}", 2 * d_k), *([(f"d_k/2, d_k = {d_k}", d_k / 2)] if d_k not in (2, 4) else [])]
    forms = [form for form, value in halves if _close(divisor, value)] + size_forms(divisor, sizes)
    return finding("evidence.forms", forms=" or ".join(forms)) if forms else finding("evidence.no_forms")


# -- explainers that hold for any output -----------------------------------------------------------
def _comparable(actual: torch.Tensor, expected: torch.Tensor) -> bool:
    return actual.shape == expected.shape and bool(torch.isfinite(actual).all()) and bool(
        torch.isfinite(expected).all())


# Half precision keeps about three significant digits (float16's epsilon is 1/1024, bfloat16's 1/128).
HALF_PRECISION = 1e-2


def rounded_to_half_precision(actual: torch.Tensor, expected: torch.Tensor) -> bool:
    """Whether ``actual`` is ``expected`` but for rounding as half precision rounds: every value
    within 1 % of the largest one's size, some not equal, and every value one that float16 or
    bfloat16 holds exactly (what a computation in half precision gives back once cast up; a wrong
    scale that happens to stay within 1 % gives values no half precision holds)."""
    if not _comparable(actual, expected) or not actual.is_floating_point():
        return False
    difference = float((actual - expected).abs().max())
    if not 0 < difference <= HALF_PRECISION * (float(expected.abs().max()) or 1.0):
        return False
    return any(torch.equal(actual, actual.to(half).to(actual.dtype)) for half in (torch.float16, torch.bfloat16))


def low_precision(actual: torch.Tensor, expected: torch.Tensor) -> Explanation | None:
    """The right values, rounded as a computation in float16 or bfloat16 rounds them (a
    ``.half()`` on the way): no other mistake, and none to name beside the digits lost."""
    if not rounded_to_half_precision(actual, expected):
        return None
    difference = float((actual - expected).abs().max())
    return Explanation(finding("evidence.low_precision", difference=number_text(difference)))


def rounded_to_decimals(actual: torch.Tensor, expected: torch.Tensor) -> Explanation | None:
    """The right values rounded to a number of decimals (``round(decimals=4)``, to print as the book
    does): every value a multiple of 10^-k and within half of it of the reference's, for the most
    decimals k (up to 6) that fit. Read first: rows of rounded weights that sum to 0.9999 are no
    missing normalisation, and values rounded so are no half precision."""
    if not _comparable(actual, expected) or not actual.is_floating_point() or torch.equal(actual, expected):
        return None
    difference = float((actual - expected).abs().max())
    for decimals in range(6, 0, -1):
        step = 10.0 ** -decimals
        on_the_grid = torch.allclose(actual, actual.round(decimals=decimals), rtol=0, atol=step * 1e-3)
        if on_the_grid and difference <= step / 2 * (1 + 1e-3):
            return Explanation(finding("evidence.rounded_to_decimals", decimals=decimals))
    return None


def all_zeros(actual: torch.Tensor, expected: torch.Tensor) -> Explanation | None:
    """Every value 0 where the reference's are not: nothing was computed (no mistake to name)."""
    if actual.numel() and not actual.any() and expected.any():
        return Explanation(finding("evidence.all_zeros"))
    return None


def capped_scores(x: torch.Tensor, dim: int, mistake: str | None = "softmax_clamped") -> Explainer:
    """The softmax of ``x`` along ``dim`` with the scores capped before exp (``x.clamp(max=c)``):
    scores above the cap all get one weight. The cap is read off the answer (``capped_softmax``).
    Slices that came out NaN are told apart: the cap does not make them, a shift other than each
    slice's own maximum does (none at all, or the whole tensor's: blind27/015)."""

    def explainer(actual: torch.Tensor, expected: torch.Tensor) -> Explanation | None:
        cap = softmax_cap(x, actual, dim)
        if cap is None:
            return None
        key = "evidence.scores_capped_nan_slices" if bool(torch.isnan(actual).any()) else "evidence.scores_capped"
        return Explanation(finding(key, cap=number_text(cap)), mistake)

    return explainer


def constant_factor(sizes: Sizes | None = None, mistake: str | None = "constant_factor",
                    named: dict[float, str] | None = None) -> Explainer:
    """Every value is the reference's times one constant c (c != 1): the evidence quotes c and the
    ``sizes`` it could be; ``mistake`` is what such a factor means on this stage, unless ``named``
    names that very factor's mistake (notebook 1's scores times 1/sqrt(d): the scale of notebook 2,
    taken too early)."""

    def explainer(actual: torch.Tensor, expected: torch.Tensor) -> Explanation | None:
        factor = _common_factor(actual, expected)
        if factor is None or _close(factor, 1.0) or factor == 0:
            return None
        meant = next((name for value, name in (named or {}).items() if _close(factor, value)), mistake)
        return Explanation(finding("evidence.constant_factor", factor=number_text(factor),
                                   forms=_forms_field(abs(factor), sizes or {})), meant)

    return explainer


def _common_factor(actual: torch.Tensor, expected: torch.Tensor, tolerance: float = 1e-5) -> float | None:
    """The one factor c with actual = c * expected everywhere (to ``tolerance``, relative), if there is one."""
    if not _comparable(actual, expected):
        return None
    scale = float(expected.abs().max())
    large = expected.abs() > 1e-3 * scale
    if scale == 0 or not bool(large.any()):
        return None
    factor = float((actual[large] / expected[large]).median())
    if torch.allclose(actual, factor * expected, rtol=tolerance, atol=tolerance / 10 * scale * max(1.0, abs(factor))):
        return factor
    return None


def nan_as_mistake(outputs: Callable[[], Sequence[torch.Tensor]], mistake: str) -> Explainer:
    """An answer whose NaN fall exactly where ``mistake``'s outputs (``outputs``, computed once the
    answer failed) give them, and nowhere else: that mistake, though the values beside them differ
    (a second fault, read by the other explainers: blind26/072, the future zeroed after a softmax of
    huge hidden scores, and the scale of another size). An exact match is the catalogue's to name."""

    def explainer(actual: torch.Tensor, expected: torch.Tensor) -> Explanation | None:
        nan = actual.isnan()
        if not bool(nan.any()):
            return None
        for output in outputs():
            output = output.detach().cpu().double()
            if output.shape == actual.shape and torch.equal(output.isnan(), nan) and not torch.allclose(
                    actual, output, equal_nan=True):
                return Explanation(finding("evidence.nan_as_mistake"), mistake)
        return None

    return explainer


def mistake_times_factor(wrong: Mapping[str, Sequence[torch.Tensor]]) -> Explainer:
    """Every value is one known mistake's output times a whole number, or one over it: that
    mistake, with a factor beside it (scores used as weights without a softmax, and divided by the
    number of tokens). ``wrong``: the catalogue's outputs by mistake id; an id of mistakes made together is
    left out, as is any answer that two mistakes explain so."""

    def explainer(actual: torch.Tensor, expected: torch.Tensor) -> Explanation | None:
        def whole_factor(output: torch.Tensor) -> float | None:
            if _nearly_proportional(output, expected.detach().cpu().double()):
                return None  # here that mistake gives the reference's values, up to a constant: nothing singles it out
            factor = _common_factor(actual, output)
            return factor if factor is not None and _whole_or_inverse(factor) else None

        fitted = _one_mistake_fits(wrong, actual, whole_factor)
        if fitted is None:
            return None
        mistake, factor = fitted
        return Explanation(finding("evidence.mistake_times_factor", factor=number_text(factor)), mistake)

    return explainer


def mistake_with_residual(wrong: Mapping[str, Sequence[torch.Tensor]]) -> Explainer:
    """An output in another shape than the reference's that one known mistake gives in that very
    shape, with one more fault of a general form on top (every value times one factor, or a softmax
    along the last dim): the mistake is named and the residual stated as a fault of its own, so that
    a second fault does not hide behind the shape the first one gave (a sum over the tokens, then
    divided by a norm; the (d, d) product, then normalised). ``wrong``: the catalogue's outputs by
    mistake id; none when no mistake, or more than one, fits so."""

    def explainer(actual: torch.Tensor, expected: torch.Tensor) -> list[Explanation] | None:
        if actual.shape == expected.shape or actual.numel() < 3:
            return None  # the same shape is read by the others; a factor fits any one or two numbers
        fitted = _one_mistake_fits(wrong, actual, lambda output: _residual(actual, output))
        if fitted is None:
            return None
        mistake, residual = fitted
        return [Explanation(finding("evidence.faults_together", count=2), mistake), residual]

    return explainer


def _one_mistake_fits(wrong: Mapping[str, Sequence[torch.Tensor]], actual: torch.Tensor,
                      fit: Callable[[torch.Tensor], object]) -> tuple[str, object] | None:
    """The one single mistake (not one of mistakes made together) with an output of ``actual``'s
    shape that ``fit`` relates to it, and what ``fit`` found; None when none, or several, fit."""
    fits = {}
    for mistake, outputs in wrong.items():
        for output in outputs:
            if "+" in mistake or output.shape != actual.shape or output.device.type == "meta":
                continue
            found = fit(output.detach().cpu().double())
            if found is not None:
                fits[mistake] = found
    return next(iter(fits.items())) if len(fits) == 1 else None


def _residual(actual: torch.Tensor, output: torch.Tensor) -> Explanation | None:
    """The one further fault of a general form that turns a mistake's ``output`` into ``actual``."""
    factor = _common_factor(actual, output)
    if factor is not None and not _close(factor, 1.0) and factor != 0:
        return Explanation(finding("evidence.mistake_times_factor", factor=number_text(factor)), "constant_factor",
                           separate=True)
    normalised = actual.ndim and actual.shape[-1] > 1 and _sums_to_one(actual, -1)
    if normalised and torch.allclose(actual, torch.softmax(output, dim=-1), rtol=1e-5, atol=1e-7):
        return Explanation(finding("evidence.softmax_of_mistake", dim=-1), None, separate=True)
    return None


# The largest count a student divides or multiplies by (the tokens of a batch, the features): a
# larger "whole" factor is a ratio of exponentials that overflow, not a number anyone wrote.
_LARGEST_COUNT = 10_000


def _nearly_proportional(output: torch.Tensor, expected: torch.Tensor) -> bool:
    """Whether ``output`` is within 0.1 % of the reference times one constant (1 included): on such
    an input a mistake is not told apart from a factor, and a factor beside it names nothing (an L2
    norm on rows that are nearly one-hot, times 1/3, is also a sum over three such rows)."""
    return _common_factor(output, expected, tolerance=1e-3) is not None


def _whole_or_inverse(factor: float) -> bool:
    """Whether a factor is a whole number from 2 up to a count's size, or one over it (a count of
    tokens, a half): a factor a student writes, where any other would be the ratio of two
    normalisations, which says nothing of a mistake made beside another."""
    return factor != 0 and any(2 <= value <= _LARGEST_COUNT and _close(value, round(value))
                               for value in (abs(factor), 1 / abs(factor)))


def diagonal_only(mistake: str | None = "diagonal_changed") -> Explainer:
    """Square (..., T, T) outputs right everywhere but on the diagonal: each token's own entry was
    changed (zeroed, doubled, left out); the evidence quotes the diagonal's factor where it is one
    number (2: counted twice)."""

    def explainer(actual: torch.Tensor, expected: torch.Tensor) -> Explanation | None:
        if not _comparable(actual, expected) or actual.ndim < 2 or actual.shape[-1] < 2:
            return None
        if actual.shape[-1] != actual.shape[-2]:
            return None
        diagonal = torch.eye(actual.shape[-1], dtype=torch.bool).expand_as(actual)
        scale = float(expected.abs().max()) or 1.0
        close = torch.isclose(actual, expected, rtol=1e-5, atol=1e-6 * scale)
        if not bool(close[~diagonal].all()) or bool(close[diagonal].all()):
            return None
        factor = _common_factor(actual.diagonal(dim1=-2, dim2=-1), expected.diagonal(dim1=-2, dim2=-1))
        evidence = (finding("evidence.diagonal_times", factor=number_text(factor)) if factor is not None
                    else finding("evidence.diagonal_only"))
        return Explanation(evidence, mistake)

    return explainer


def right_values_elsewhere(actual: torch.Tensor, expected: torch.Tensor) -> Explanation | None:
    """The reference's values in another order of axes (a transpose or permutation, maybe viewed
    to another shape), or in another shape: what view, reshape, flatten and transpose mistakes
    give."""
    if actual.numel() != expected.numel() or actual.numel() < 2 or not bool(torch.isfinite(expected).all()):
        return None
    # The values in their own order first, within the same rounding as the orders below: a
    # symmetric result (scores of inputs @ inputs.T) also equals its transpose, which is no fault.
    if actual.shape != expected.shape and torch.allclose(actual.reshape(-1), expected.reshape(-1), rtol=1e-6,
                                                         atol=1e-9):
        return Explanation(finding("evidence.reshaped", actual_shape=_shape(actual.shape),
                                   expected_shape=_shape(expected.shape)), "right_values_wrong_shape")
    if expected.ndim > 5 or _distinct(expected) < expected.numel() // 2:
        return None  # too many orders to try, or too many equal values to tell them apart
    identity = tuple(range(expected.ndim))
    for order in itertools.permutations(identity):
        if order == identity:
            continue
        moved = expected.permute(order)
        if moved.shape == actual.shape and torch.allclose(actual, moved, rtol=1e-6, atol=1e-9):
            return Explanation(_permuted_evidence(order), "axes_permuted")
        if torch.allclose(actual, moved.reshape(actual.shape), rtol=1e-6, atol=1e-9):
            return Explanation(finding("evidence.permuted_then_viewed", order=str(order),
                                       shape=_shape(actual.shape)), "axes_permuted")
    return None


def where_it_differs(actual: torch.Tensor, expected: torch.Tensor) -> Explanation | None:
    """Where an output of the reference's shape differs, when nothing else explains it: the
    reference's columns or rows in another order (heads merged in another order, say), else which
    rows, sequences or heads differ while the others are right. The public check reads the same
    (``selfcheck.differences``); it names no mistake, and says where to look."""
    if actual.shape != expected.shape or actual.numel() < 2 or not bool(torch.isfinite(actual).all()):
        return None
    moved = reordered(actual, expected)
    if moved is not None:
        dim, order = moved
        return Explanation(finding("evidence.columns_reordered" if dim == -1 else "evidence.rows_reordered",
                                   order=index_text(order), right=index_text(range(actual.shape[dim]))))
    differing = slices_that_differ(actual, expected)
    if differing is None:
        return None
    dim, indices = differing
    if dim == -2:
        return Explanation(finding("evidence.rows_differ", rows=index_text(indices)))
    return Explanation(finding("evidence.slices_differ", indices=index_text(indices), dim=dim))


def one_row_repeated(actual: torch.Tensor, expected: torch.Tensor) -> Explanation | None:
    """Every row (the dim before the last) is one and the same row of the reference, where the
    reference's rows differ: each query's result replaced by one query's (a loop that reads a fixed
    index, or a row broadcast over the others)."""
    if actual.shape != expected.shape or actual.ndim < 2 or actual.shape[-2] < 2:
        return None
    first = actual[..., :1, :]
    if not torch.allclose(actual, first.expand_as(actual), rtol=1e-6, atol=1e-9):
        return None
    if torch.allclose(expected, expected[..., :1, :].expand_as(expected), rtol=1e-6, atol=1e-9):
        return None  # the reference's own rows are alike: nothing to tell apart
    for row in range(expected.shape[-2]):
        if torch.allclose(first, expected[..., row:row + 1, :], rtol=1e-5, atol=1e-8):
            return Explanation(finding("evidence.one_row_repeated", row=row))
    return None


def _permuted_evidence(order: tuple[int, ...]) -> Finding:
    swapped = [dim for dim, moved in enumerate(order) if moved != dim]
    if len(swapped) == 2:
        return finding("evidence.swapped", first=swapped[0] - len(order), second=swapped[1] - len(order))
    return finding("evidence.permuted", order=str(order))


def _distinct(tensor: torch.Tensor) -> int:
    return int(torch.unique(tensor.flatten()).numel())


def _shape(shape) -> str:
    return "(" + ", ".join(str(size) for size in shape) + ("," if len(shape) == 1 else "") + ")"


# -- explainers of normalised outputs (softmax weights, renormalised rows) --------------------------
def _sums_to_one(tensor: torch.Tensor, dim: int) -> bool:
    sums = tensor.sum(dim=dim)
    return bool(torch.allclose(sums, torch.ones_like(sums), rtol=0, atol=1e-5))


def distribution(dim: int, *, wrong_dim: str | None = "normalised_wrong_dim",
                 unnormalised: str | None = "not_normalised", transposed: str | None = None) -> Explainer:
    """For an output whose slices along ``dim`` sum to 1 (softmax weights): a result that sums to 1
    along another dim instead (``wrong_dim``), or whose every slice along ``dim`` is the reference's
    times a factor of its own, so that it sums to something else (``unnormalised``). A result that
    is the reference with ``dim`` and that other dim swapped sums to 1 along the other dim too, but
    was not normalised wrongly: it was transposed (``transposed``, where the stage can name it)."""

    def explainer(actual: torch.Tensor, expected: torch.Tensor) -> Explanation | None:
        if not _comparable(actual, expected) or actual.ndim < 2 or not _sums_to_one(expected, dim):
            return None
        if rounded_to_half_precision(actual, expected):
            return None  # sums off by a rounding (low_precision says so), not a normalisation left out
        here = dim % actual.ndim
        if not _sums_to_one(actual, here):
            others = [other for other in range(actual.ndim) if other != here and actual.shape[other] > 1
                      and _sums_to_one(actual, other)]
            if len(others) == 1 and _swapped(actual, expected, here, others[0]):
                swapped = finding("evidence.swapped", first=min(here, others[0]) - actual.ndim,
                                  second=max(here, others[0]) - actual.ndim)
                return Explanation(swapped, transposed) if transposed else None
            if len(others) == 1:
                return Explanation(finding("evidence.sums_along", dim=others[0] - actual.ndim,
                                           expected_dim=here - actual.ndim), wrong_dim)
        factors = _slice_factors(actual, expected, here)
        # Factors all equal are a constant factor: constant_factor says that better.
        if factors is not None and torch.allclose(factors, factors.flatten()[0].expand_as(factors), rtol=1e-4):
            return None
        if factors is not None or (not _sums_to_one(actual, here) and bool((actual >= 0).all())):
            # Each slice the reference's times its own factor, or no distribution at all (a sigmoid).
            return Explanation(finding("evidence.not_normalised" if factors is not None else "evidence.sums_to",
                                       dim=here - actual.ndim, sums=_quoted_sums(actual.sum(dim=here).flatten())),
                               unnormalised)
        return None

    return explainer


def _swapped(actual: torch.Tensor, expected: torch.Tensor, first: int, second: int) -> bool:
    moved = expected.transpose(first, second)
    return moved.shape == actual.shape and torch.allclose(actual, moved, rtol=1e-6, atol=1e-9)


def slice_factors(dim: int, mistake: str | None = None) -> Explainer:
    """Each slice along ``dim`` (a row, for dim=-1) is the reference's times a factor of its own,
    the factors not all equal: a count or a normalisation applied per row (running sums instead of
    running means, say). The evidence quotes the factors where they vary along one dim only."""

    def explainer(actual: torch.Tensor, expected: torch.Tensor) -> Explanation | None:
        if not _comparable(actual, expected) or actual.ndim < 2:
            return None
        here = dim % actual.ndim
        factors = _slice_factors(actual, expected, here)
        if factors is None or torch.allclose(factors, factors.flatten()[0].expand_as(factors), rtol=1e-4):
            return None
        if bool(((factors - 1).abs() < 1e-4).logical_or(factors.abs() < 1e-12).all()):
            return None  # some slices right, the others 0: where it differs says which (``where_it_differs``)
        varying = [axis for axis in range(factors.ndim) if factors.shape[axis] > 1
                   and not torch.allclose(factors, factors.narrow(axis, 0, 1).expand_as(factors), rtol=1e-4)]
        if len(varying) == 1:
            along = factors.movedim(varying[0], -1).reshape(-1, factors.shape[varying[0]])[0]
            return Explanation(finding("evidence.factors_along", dim=here - actual.ndim,
                                       along=varying[0] - factors.ndim, factors=_quoted(along)), mistake)
        return Explanation(finding("evidence.slices_scaled", dim=here - actual.ndim), mistake)

    return explainer


def _slice_factors(actual: torch.Tensor, expected: torch.Tensor, dim: int) -> torch.Tensor | None:
    """The factor of each slice along ``dim`` when actual = factor * expected slice by slice
    (keepdim shape), else None."""
    if not bool((expected.abs().amax(dim=dim, keepdim=True) > 0).all()):
        return None  # a slice of zeros has no factor
    factors = (actual * expected).sum(dim=dim, keepdim=True) / (expected * expected).sum(dim=dim, keepdim=True)
    tolerance = 1e-6 * float(expected.abs().max()) * max(1.0, float(factors.abs().max()))
    return factors if torch.allclose(actual, factors * expected, rtol=1e-5, atol=tolerance) else None


def _quoted_sums(sums: torch.Tensor) -> str:
    """Slices' sums as quoted beside "not to 1": the first ones, unless each of those is 1; then
    the ones that are not (a NaN row far down), after an ellipsis, so that the quote shows the fault."""
    off = ~torch.isclose(sums, torch.ones_like(sums))
    if bool(off[:MAX_QUOTED].any()) or not bool(off.any()):
        return _quoted(sums)
    return "..., " + _quoted(sums[off])


def _quoted(values: torch.Tensor) -> str:
    shown = ", ".join(number_text(float(value)) for value in values[:MAX_QUOTED])
    return shown + (", ..." if values.numel() > MAX_QUOTED else "")


def softmax_of_right(dim: int = -1, mistake: str | None = "returned_weights_not_scores") -> Explainer:
    """The output is a softmax of the right result along ``dim``: normalised where the stage asks
    for scores (or normalised twice)."""

    def explainer(actual: torch.Tensor, expected: torch.Tensor) -> Explanation | None:
        if not _comparable(actual, expected) or not _sums_to_one(actual, dim):
            return None
        if torch.allclose(actual, torch.softmax(expected, dim=dim), rtol=1e-5, atol=1e-7):
            return Explanation(finding("evidence.softmax_of_right", dim=dim), mistake)
        factor = _softmax_factor(actual, expected, dim)
        if factor is not None:
            return Explanation(finding("evidence.softmax_of_scaled", dim=dim, factor=number_text(factor)), mistake)
        return None

    return explainer


def _softmax_factor(actual: torch.Tensor, expected: torch.Tensor, dim: int) -> float | None:
    """The factor c for which ``actual`` is the softmax along ``dim`` of ``expected`` times c (the
    scores scaled, then normalised), fitted on the logarithms; None when no factor gives it."""
    if not bool((actual > 0).all()):
        return None
    logs, scores = actual.double().log(), expected.double()
    logs, scores = logs - logs.mean(dim=dim, keepdim=True), scores - scores.mean(dim=dim, keepdim=True)
    spread = float((scores * scores).sum())
    if spread == 0.0:
        return None
    factor = float((logs * scores).sum()) / spread
    fits = torch.allclose(actual.double(), torch.softmax(expected.double() * factor, dim=dim), rtol=1e-4, atol=1e-6)
    return factor if fits and not _close(factor, 1.0) else None


def softmax_of_rescaled_input(x: torch.Tensor, dim: int) -> Explainer:
    """A softmax stage's output is the softmax along ``dim`` of its input ``x`` divided by a number
    of each slice's own (its largest value, say): a rescaling, which changes a softmax, where the
    stable softmax subtracts (a shift, which leaves it as it was). The evidence quotes the divisors."""

    def explainer(actual: torch.Tensor, expected: torch.Tensor) -> Explanation | None:
        if not _comparable(actual, expected) or not bool((actual > 0).all()) or not _sums_to_one(actual, dim):
            return None
        inputs = x.detach().cpu().double()
        if inputs.shape != actual.shape:
            return None
        logs, centred = actual.log(), inputs - inputs.mean(dim=dim, keepdim=True)
        logs = logs - logs.mean(dim=dim, keepdim=True)
        spread = (centred * centred).sum(dim=dim, keepdim=True)
        if not bool((spread > 0).all()):
            return None
        factors = (logs * centred).sum(dim=dim, keepdim=True) / spread
        if not bool((factors.abs() > 1e-12).all()) or torch.allclose(factors, torch.ones_like(factors), rtol=1e-3):
            return None
        if not torch.allclose(actual, torch.softmax(inputs * factors, dim=dim), rtol=1e-4, atol=1e-7):
            return None
        return Explanation(finding("evidence.softmax_of_rescaled_input", dim=dim,
                                   divisors=_quoted((1 / factors).flatten())))

    return explainer


def pairwise_distances(inputs: torch.Tensor) -> Explainer:
    """The scores of a (T, d) input are the distances between its tokens (``torch.cdist``), or their
    squares, or the negatives of either: a measure of how far apart two tokens are, 0 on the
    diagonal, where a score is their dot product."""

    def explainer(actual: torch.Tensor, expected: torch.Tensor) -> Explanation | None:
        tokens = inputs.detach().cpu().double()
        if actual.shape != expected.shape or tokens.ndim != 2 or actual.shape != (tokens.shape[0],) * 2:
            return None
        squared = (tokens[:, None, :] - tokens[None, :, :]).pow(2).sum(dim=-1)
        for sign, form, values in ((1, "distances", squared.sqrt()), (1, "squared_distances", squared),
                                   (-1, "distances", squared.sqrt()), (-1, "squared_distances", squared)):
            if torch.allclose(actual, sign * values, rtol=1e-5, atol=1e-6):
                return Explanation(finding(f"evidence.{'negative_' if sign < 0 else ''}{form}"))
        return None

    return explainer


def one_input_row(inputs: torch.Tensor, weights: torch.Tensor | None = None) -> Explainer:
    """The output is one row of ``inputs`` alone, where the reference weighs them all: the row of
    the largest weight (``weights``), as hard attention picks it, or another one."""

    def explainer(actual: torch.Tensor, expected: torch.Tensor) -> Explanation | None:
        rows = inputs.detach().cpu().double()
        if actual.shape != expected.shape or actual.shape != rows.shape[1:] or rows.shape[0] < 2:
            return None
        matches = [row for row in range(rows.shape[0]) if torch.allclose(actual, rows[row], rtol=1e-6, atol=1e-9)]
        if len(matches) != 1 or torch.allclose(expected, rows[matches[0]], rtol=1e-6, atol=1e-9):
            return None
        largest = weights is not None and int(weights.detach().cpu().argmax()) == matches[0]
        return Explanation(finding("evidence.one_input_row_largest" if largest else "evidence.one_input_row",
                                   row=matches[0]))

    return explainer


# -- attention computed with another scale ---------------------------------------------------------
def scores_divisor(attend: Callable[[float], torch.Tensor], right: float, right_text: str | Finding, sizes: Sizes,
                   mistakes_by_divisor: Callable[[float], str | None], *, separate: bool = False) -> Explainer:
    """The output is what the attention gives with its scores divided by another number than
    ``right`` (sqrt(d_k)): the divisor is fitted on the output (``attend(divisor)`` computes the
    attention so), then read as sizes. ``mistakes_by_divisor`` names what that divisor means;
    ``separate``: a fault of its own (``Explanation.separate``)."""

    def explainer(actual: torch.Tensor, expected: torch.Tensor) -> Explanation | None:
        if not _comparable(actual, expected):
            return None
        divisor = fitted_divisor(actual, lambda value: attend(value).detach().cpu().double())
        if divisor is None or _close(divisor, right):
            return None
        return Explanation(finding("evidence.scores_divided_by", divisor=number_text(divisor),
                                   forms=_divisor_forms(divisor, round(right * right), sizes), right=right_text),
                           mistakes_by_divisor(divisor), separate)

    return explainer


def scores_divisor_beside(attend: Callable[..., torch.Tensor], faults: Mapping[str, Sequence[dict]], right: float,
                          right_text: str | Finding, sizes: Sizes,
                          mistakes_by_divisor: Callable[[float], str | None]) -> Explainer:
    """The output is what the attention gives with one fault of its structure (``faults``:
    ``attend``'s options by the mistake, such as the weights used transposed) and its scores
    divided by another number than ``right``: two faults, the structure's named and the scale a
    fault of its own (a scale written by hand, right on one size only, beside weights used
    transposed). ``scores_divisor`` fits the scale alone; this is for what it cannot fit."""

    def explainer(actual: torch.Tensor, expected: torch.Tensor) -> list[Explanation] | None:
        if not _comparable(actual, expected):
            return None
        for mistake, option_list in faults.items():
            for options in option_list:
                try:
                    divisor = fitted_divisor(actual, lambda value, options=options: attend(
                        **{**options, "scale_dim": value**2}).detach().cpu().double())  # the fitted scale wins
                except (RuntimeError, ValueError):  # another shape: not this fault
                    continue
                if divisor is None or _close(divisor, right):
                    continue
                scale = finding("evidence.scores_divided_by", divisor=number_text(divisor),
                                forms=_divisor_forms(divisor, round(right * right), sizes), right=right_text)
                return [Explanation(finding("evidence.faults_together", count=2), mistake),
                        Explanation(scale, mistakes_by_divisor(divisor), separate=True)]
        return None

    return explainer


# A weight above this is a visible position's (a softmax gives exactly 0, or NaN, where it hides;
# float32 reaches about 1e-38 before it underflows), and the log-weights of the visible positions
# fit one divisor when they miss it by at most this share of their range (float32's rounding).
VISIBLE_WEIGHT = 1e-30
FIT_TOLERANCE = 1e-4


def divisor_on_visible(scores: torch.Tensor, right: float, right_text: str | Finding, sizes: Sizes,
                       mistakes_by_divisor: Callable[[float], str | None]) -> Explainer:
    """Weights that are a softmax of ``scores`` divided by another number than ``right``, over
    whatever positions each row keeps: a fault of its own beside a wrong mask (one that hides the
    past, say), which ``scores_divisor`` cannot fit since it masks as the reference does. Along a
    row, the log-weights of its visible positions (neither 0 nor NaN) differ as the scores do,
    divided by the divisor, whatever the row hides; so the divisor is fitted on them alone, and
    only where one divisor fits every row whose kept weights sum to 1."""
    scores = scores.detach().cpu().double()

    def explainer(actual: torch.Tensor, expected: torch.Tensor) -> Explanation | None:
        if actual.shape != scores.shape:
            return None
        visible = torch.isfinite(actual) & (actual > VISIBLE_WEIGHT)
        rows = visible.sum(-1, keepdim=True)
        if int((rows >= 2).sum()) < 2:
            return None
        if not _sums_to_one(torch.where(visible, actual, 0.0)[rows.squeeze(-1) > 0], -1):
            return None  # not a softmax's weights (divided after it, say): no divisor of the scores to read
        logs = torch.where(visible, actual.clamp_min(VISIBLE_WEIGHT).log(), 0.0)
        centred_logs = torch.where(visible, logs - logs.sum(-1, keepdim=True) / rows.clamp_min(1), 0.0)
        centred_scores = torch.where(visible, scores - torch.where(visible, scores, 0.0).sum(-1, keepdim=True)
                                     / rows.clamp_min(1), 0.0)
        slope = float((centred_logs * centred_scores).sum() / (centred_scores**2).sum())
        residual = float((centred_logs - slope * centred_scores).abs().max())
        if slope <= 0 or residual > FIT_TOLERANCE * (1.0 + float(centred_logs.abs().max())):
            return None
        divisor = 1.0 / slope
        if _close(divisor, right):
            return None
        return Explanation(finding("evidence.kept_scores_divided_by", divisor=number_text(divisor),
                                   forms=_divisor_forms(divisor, round(right * right), sizes), right=right_text),
                           mistakes_by_divisor(divisor), separate=True)

    return explainer


def half_power_divisor(divisor: float, d_k: int) -> bool:
    """Whether ``divisor`` is what ``d_k ** 1/2`` divides by (2·d_k, or d_k/2 in brackets) and can
    be nothing else: not 1 (no scale), nor the root of a whole number (8 = sqrt(64) is as likely a
    head size of 64 written by hand, where d_k = 4)."""
    halves = (2 * d_k, d_k / 2)
    return any(_close(divisor, half) for half in halves) and not _close(divisor, 1.0) and not size_forms(divisor, {})


def scaling_mistake(d_k: int, sizes: Sizes) -> Callable[[float], str]:
    """The mistake a divisor of the scores means when the right one is sqrt(d_k): none at all, d_k
    itself, 1/sqrt(d_k) (the scale multiplied), ``d_k ** 1/2`` (2·d_k or d_k/2), the square root of
    another size of the call, or another number."""

    def mistake(divisor: float) -> str:
        if _close(divisor, 1.0):
            return "no_sqrt_scaling"
        if _close(divisor, d_k):
            return "scaled_by_d_k"
        if _close(divisor, 1 / math.sqrt(d_k)):
            return "scale_multiplied"
        if half_power_divisor(divisor, d_k):
            return "half_power_precedence"
        if any(_close(divisor, math.sqrt(size)) for size in sizes.values() if size not in (1, d_k)):
            return "scaled_by_wrong_size"
        return "scores_scaled_wrongly"

    return mistake


def divided_scores(d_k: int, sizes: Sizes) -> Explainer:
    """Scores that are the right ones times a constant: divided by another number than
    sqrt(d_k), which the evidence quotes with the sizes it could be."""

    def explainer(actual: torch.Tensor, expected: torch.Tensor) -> Explanation | None:
        factor = _common_factor(actual, expected)
        if factor is None or factor <= 0 or _close(factor, 1.0):
            return None
        divisor = math.sqrt(d_k) / factor
        right = f"sqrt(d_k) = {number_text(math.sqrt(d_k))}"
        evidence = finding("evidence.scores_divided", divisor=number_text(divisor),
                           forms=_divisor_forms(divisor, d_k, sizes), right=right)
        return Explanation(evidence, scaling_mistake(d_k, sizes)(divisor))

    return explainer


def fitted_divisor(actual: torch.Tensor, attend: Callable[[float], torch.Tensor]) -> float | None:
    """The divisor d (from 1/1000 to 10000) for which ``attend(d)`` reproduces ``actual``, if one does:
    a grid on a log scale, then a golden-section search around the best point."""

    def error(log_divisor: float) -> float:
        output = attend(math.exp(log_divisor))
        if output.shape != actual.shape:
            raise ValueError(output.shape)
        return float((output - actual).abs().nan_to_num(math.inf).max())

    grid = [math.log(1e-3) + step * (math.log(1e4) - math.log(1e-3)) / 140 for step in range(141)]
    errors = [error(point) for point in grid]
    best = min(range(len(grid)), key=errors.__getitem__)
    low, high = grid[max(best - 1, 0)], grid[min(best + 1, len(grid) - 1)]
    golden = (math.sqrt(5) - 1) / 2
    for _ in range(60):
        first, second = high - golden * (high - low), low + golden * (high - low)
        if error(first) < error(second):
            high = second
        else:
            low = first
    divisor = math.exp((low + high) / 2)
    tolerance = 1e-6 * (float(actual.abs().max()) or 1.0) + 1e-9
    # Only a divisor the output pins down: near-uniform or near-one-hot weights fit a whole range.
    pinned = min(error(math.log(divisor * 1.02)), error(math.log(divisor / 1.02))) > 10 * tolerance
    return divisor if error(math.log(divisor)) <= tolerance and pinned else None


# -- the future, probed --------------------------------------------------------------------------
# The mistake each evidence of sequences mixed within a batch points to (not a leak along time).
BATCH_EVIDENCE = {"evidence.batch_mixed": "batch_mixed", "evidence.batch_carried_over": "batch_carried_over"}


def future_changes_past(probe: Callable[[torch.Tensor], Finding | None],
                        cause: Callable[[], str] | None = None) -> Explainer:
    """The output at earlier positions changed when only later inputs changed: ``probe(actual)``
    runs the student's code on inputs whose future alone was changed and returns the evidence of
    a leak (an ``evidence.future_*`` phrase), or None. ``cause()`` names the mistake a leak along
    time shows, when a further probe can tell (``future_leak`` without it)."""

    def explainer(actual: torch.Tensor, expected: torch.Tensor) -> Explanation | None:
        if actual.shape != expected.shape:
            return None  # positions are only where the reference has them in an output of its shape
        leaked = probe(actual)
        if leaked is None:
            return None
        if leaked.key in BATCH_EVIDENCE:
            return Explanation(leaked, BATCH_EVIDENCE[leaked.key])
        return Explanation(leaked, cause() if cause else "future_leak")

    return explainer


# -- blocks of features in another order -----------------------------------------------------------
def blocks_out_of_order(blocks: Sequence[torch.Tensor], mistake: str | None) -> Explainer:
    """The output is the right ``blocks`` (each head's output) joined along the last dim, but in
    another order: the evidence says which block sits where, ``mistake`` is named when they come in
    reverse order. Blocks that are not told apart (equal heads) explain nothing."""

    def explainer(actual: torch.Tensor, expected: torch.Tensor) -> Explanation | None:
        width = blocks[0].shape[-1]
        if not _comparable(actual, expected) or actual.shape[-1] != width * len(blocks):
            return None
        pieces = actual.split(width, dim=-1)
        order = []
        for piece in pieces:
            same = [index for index, block in enumerate(blocks)
                    if torch.allclose(piece, block.detach().cpu().double(), rtol=1e-5, atol=1e-7)]
            if len(same) != 1:
                return None
            order.append(same[0])
        if order == list(range(len(blocks))) or sorted(order) != list(range(len(blocks))):
            return None
        places = [finding("evidence.block_holds", first=position * width, last=(position + 1) * width - 1, head=head)
                  for position, head in enumerate(order)]
        return Explanation(finding("evidence.blocks_out_of_order", blocks=places),
                           mistake if order == list(reversed(range(len(blocks)))) else None)

    return explainer
