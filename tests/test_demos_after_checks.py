"""A stage that passes its public check makes the demos after it right (issue 40, item 6).

Every variant of a stage in the corpora (the mutants, the wrong answers, the correct answers in
other styles) whose stage passes its public check is run through the demos after it: the code
cells that set up, and the demos after its check that run it, in order, on the solution's other
definitions, as tests/test_fair_predictions.py runs them. The demos must then run without an
error, and what they show as attention weights must be weights: every figure drawn on the scale
of a weight (``imshow(..., vmin=0, vmax=1)``) has rows that sum to 1 and values in [0, 1], and so
has every weight the demos print. The demos that train a model run here with a few steps of
training (what they read, print and draw is the same); the full training runs for a chosen few
(slow). The answers that pass no weights through a dropout layer, where the trained demos read
them, are listed: the demos say so and skip those figures (``FIGURES_SKIPPED``).
"""

from __future__ import annotations

import contextlib
import functools
import io
import re
from dataclasses import dataclass

import nbformat
import numpy as np
import pytest
from kit_notebooks import load_definitions
from meta_class import ALTERNATIVES, alternative_answers
from mutations import CORPUS, Mutation
from wrong_answers import WrongAnswer

from autograder.notebooks.variants import answer_cell, load_solution
from autograder.paths import solution_notebook
from autograder.reading.notebook import cell_source
from autograder.student.curriculum import STAGES_BY_ASSIGNMENT
from autograder.student.language import LANGUAGES
from autograder.student.selfcheck import modules, run_check
from autograder.student.selfcheck.catalog import hint_text, speaking, text
from autograder.student.waiting_demos import stages_used

# The notebooks' functions that train a model, and the keyword that sets how long.
TRAINING = {"train": "steps", "train_and_test": "steps", "train_next_token": "steps"}
SHORT_TRAINING = 2  # steps: the demos read, print and draw the weights as after a full training
NOT_DEMOS = ("self-checks", "answer-", "check-", "predict-")
# A printed weight: "weight 0.93 on ...", "softmax weights: tensor([...])", "trained: [0.1, ...]".
PRINTED_WEIGHTS = (r"weight (-?\d+\.\d+)", r"weights: tensor\(\[([^\]]*)\]", r"trained: *\[([^\]]*)\]")


@dataclass(frozen=True)
class Variant:
    """One answer of one stage: its name, stage and notebook, and its answer cell: the source
    itself, or the mutant or wrong answer of the corpus that makes it (read when needed)."""

    name: str
    stage: str
    assignment: str
    answer: str | Mutation | WrongAnswer

    @property
    def source(self) -> str:
        return self.answer if isinstance(self.answer, str) else _answer_source(self.answer)


@functools.cache
def _answer_source(wrong: Mutation | WrongAnswer) -> str:
    return cell_source(answer_cell(wrong.notebook(), wrong.stage))


def _variants() -> list[Variant]:
    found = [Variant(wrong.name, wrong.stage, wrong.assignment, wrong) for wrong in CORPUS]
    for path in ALTERNATIVES:
        assignment, answers = alternative_answers(path)
        # A style module's other answers come with each of its stages, as they would in the student's
        # notebook: a fused SelfAttention_v2 has its own copy_v2_weights_into_v1, which reads it.
        whole = "\n".join(answers.values())
        found += [Variant(f"{path.stem}-{stage}", stage, assignment, whole) for stage in answers]
    return found


VARIANTS = _variants()


def passes_its_check(variant: Variant) -> bool:
    return run_check(variant.stage, definitions(variant.assignment, variant), "en").passed


@dataclass
class Shown:
    """What the demos printed and the arrays they drew on the scale of a weight, by cell."""

    printed: dict[str, str]
    weights: list[tuple[str, np.ndarray]]
    error: str | None = None  # where a demo stopped, and why


@functools.cache
def _solution(assignment: str) -> tuple[list, dict[str, str]]:
    """The notebook's demo cells in order, and its answer cells by stage."""
    cells = nbformat.read(solution_notebook(assignment), as_version=4).cells
    demos = [cell for cell in cells if cell.cell_type == "code" and not cell.id.startswith(NOT_DEMOS)]
    answers = {stage: cell_source(answer_cell(load_solution(assignment), stage))
               for stage in STAGES_BY_ASSIGNMENT[assignment]}
    return demos, answers


def definitions(assignment: str, variant: Variant | None) -> dict:
    """The solution's definitions, with ``variant``'s answer in place of its stage's: loaded
    afresh, so that the solution's other stages call the variant (their globals are this namespace)."""
    namespace = load_definitions(solution_notebook(assignment))[0]
    if variant is not None:
        exec(compile(variant.source, variant.name, "exec"), namespace)
    return namespace


def demo_cells(assignment: str, stage: str | None) -> list:
    """The cells that run the demos of ``stage`` (every demo with None): the cells that set up
    (they need no stage), and the demos after its check that run it, by name or through the
    answer of the stage they need (the solution's MultiHeadAttention calls split_heads)."""
    demos, answers = _solution(assignment)
    if stage is None:
        return demos
    order = [cell.id for cell in nbformat.read(solution_notebook(assignment), as_version=4).cells]
    checked = order.index(f"check-{stage}")

    def runs_it(cell) -> bool:
        needed = [name for name in stages_used(cell.source) if name in answers]
        if not needed:
            return True
        return order.index(cell.id) > checked and (stage in cell.source or any(
            re.search(rf"\b{stage}\b", answers.get(other, "")) for other in needed))

    return [cell for cell in demos if runs_it(cell)]


def run_demos(variant: Variant | None, assignment: str, trained: bool, monkeypatch) -> Shown:
    """Run the demos after ``variant``'s stage with its answer in place of the solution's (every
    demo of the solution with None), with a few steps of training unless ``trained``, up to the
    first error (which a student's kernel words in one line, ``autograder.student.waiting_demos``)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.axes import Axes

    shown = Shown({}, [])
    cell_id = ""
    draw = Axes.imshow

    def imshow(self, values, *args, **kwargs):
        if kwargs.get("vmin") == 0 and kwargs.get("vmax") == 1:  # the scale of a weight
            shown.weights.append((cell_id, np.asarray(values, dtype=np.float64)))
        return draw(self, values, *args, **kwargs)

    monkeypatch.setattr(Axes, "imshow", imshow)
    monkeypatch.setattr(plt, "show", lambda: plt.close("all"))
    namespace = definitions(assignment, variant)
    namespace.update(reveal=lambda *args, **kwargs: None)
    try:
        for cell in demo_cells(assignment, variant.stage if variant is not None else None):
            cell_id, printed = cell.id, io.StringIO()
            try:
                with contextlib.redirect_stdout(printed):
                    exec(compile(cell.source, cell.id, "exec"), namespace)
            except Exception as error:  # noqa: BLE001 - the finding: which demo stopped, and why
                shown.error = f"{cell.id} stopped at {type(error).__name__}: {error}"
                break
            finally:
                shown.printed[cell.id] = printed.getvalue()
            if not trained:
                for function, steps in TRAINING.items():
                    if function in namespace and not getattr(namespace[function], "shortened", False):
                        namespace[function] = _shortened(namespace[function], steps)
    finally:
        plt.close("all")
    return shown


def _shortened(function, steps: str):
    def short(*args, **kwargs):
        return function(*args, **{**kwargs, steps: SHORT_TRAINING})

    short.shortened = True
    return short


def problems(shown: Shown) -> list[str]:
    """Where the demos stopped, and where they show as weights what is not: rows that do not sum
    to 1, values outside [0, 1]."""
    problems = [shown.error] if shown.error else []
    for cell_id, values in shown.weights:
        if values.ndim != 2:
            problems.append(f"{cell_id}: draws an array of shape {values.shape} as weights")
            continue
        if not np.isfinite(values).all() or values.min() < -1e-6 or values.max() > 1 + 1e-6:
            problems.append(f"{cell_id}: draws values in [{values.min():.3g}, {values.max():.3g}] as weights")
        elif not np.allclose(values.sum(axis=-1), 1, atol=1e-4):
            problems.append(f"{cell_id}: draws weights whose rows sum to {np.round(values.sum(axis=-1), 3)}")
    for cell_id, printed in shown.printed.items():
        for pattern in PRINTED_WEIGHTS:
            for found in re.findall(pattern, printed):
                numbers = [float(number) for number in re.findall(r"-?\d+\.\d+(?:e-?\d+)?|nan|inf", found)]
                if any(not 0 <= number <= 1 for number in numbers):
                    problems.append(f"{cell_id}: prints {found!r} as weights")
    return problems


def _of_stage(stage: str) -> list[Variant]:
    return [variant for variant in VARIANTS if variant.stage == stage]


def demo_problems(variant: Variant, monkeypatch, trained: bool = False) -> list[str] | None:
    """What goes wrong in the demos after ``variant``'s stage; None when its stage fails its
    public check (the student is told to fix it first)."""
    if not passes_its_check(variant):
        return None
    return problems(run_demos(variant, variant.assignment, trained, monkeypatch))


# Answers that pass their check and pass no attention weights through a dropout layer, which is
# where the demos read them: correct ones that leave the weights inside
# F.scaled_dot_product_attention (the grader gives them full marks, so the check must pass them),
# and one wrong answer that drops only its output, which the check cannot tell from them. The demos
# say so in one line and skip the figures of the weights; every other answer's weights are drawn,
# in whatever layout of batch and heads it drops them (notebook 4's ``attention_weights``).
FIGURES_SKIPPED = {"04_sdpa_bool_mask-MultiHeadAttention", "04_flash_attention-MultiHeadAttention",
                   "04_unflatten_and_is_causal-MultiHeadAttention", "multi_head_residual_dropout_only"}
# An answer that fuses the projections in one layer passes (with a note that code reaching the
# weights by the notebook's names will not find them): notebook 2's one-way experiment is such code,
# as it ties W_key to W_query, and stops there in one line. So does one whose attention dropout has
# another name (its note says the demos read the weights where `dropout` receives them).
STOPS_WHERE_THE_NAMES_ARE_NEEDED = {
    "02_fused_qkv-SelfAttention_v2": ["learned-training stopped at AttributeError: 'SelfAttention_v2' object has no"
                                      " attribute 'W_query'"],
    **{name: ["learned-training stopped at AttributeError: 'CausalAttention' object has no attribute 'dropout'"]
       for name in ("03_mask_in_forward-CausalAttention", "03_visible_mask-CausalAttention")}}
SKIPPED = "These figures read the attention weights as"
# What they say to a module that passes nothing of (..., T, T) through its dropout: right code (the
# fused attention computes its weights inside), told as no mistake (notebook 4's review).
ELSEWHERE = "yours computes them elsewhere (inside F.scaled_dot_product_attention, say), which is no mistake"
STAGES = sorted({variant.stage for variant in VARIANTS})


@pytest.mark.parametrize("stage", STAGES)
def test_every_answer_that_passes_its_check_leaves_the_demos_after_it_right(stage, monkeypatch):
    """The demos after the stage run, with a short training, behind every variant of the corpora
    whose stage passes its public check, and draw and print weights where they say so."""
    found = {}
    for variant in _of_stage(stage):
        seen = demo_problems(variant, monkeypatch)
        if seen:
            found[variant.name] = seen
    assert found == {name: said for name, said in STOPS_WHERE_THE_NAMES_ARE_NEEDED.items()
                     if name in {variant.name for variant in _of_stage(stage)}}


def test_the_demos_draw_the_weights_of_every_answer_but_those_that_drop_none(monkeypatch):
    """The list above stays true: behind every MultiHeadAttention that passes its check, the trained
    demos of notebook 4 draw its heads' weights (all heads in one call, heads folded into the batch,
    one call per head, a dropout layer of another name), or, for the answers listed, say in one line
    why they skip them, and only then."""
    skipped, drawn = set(), set()
    for variant in _of_stage("MultiHeadAttention"):
        if not passes_its_check(variant):
            continue
        shown = run_demos(variant, variant.assignment, False, monkeypatch)
        assert shown.error is None, (variant.name, shown.error)
        said = [cell for cell, printed in shown.printed.items() if SKIPPED in printed]
        cells = {cell for cell, _ in shown.weights}
        if said:
            assert said == ["learned-training", "induction-training"], (variant.name, said)
            assert all(ELSEWHERE in shown.printed[cell] for cell in said), (variant.name, shown.printed)
            assert not cells, (variant.name, cells)
            skipped.add(variant.name)
        else:
            assert {"learned-training", "induction-training"} <= cells, (variant.name, cells)
            drawn.add(variant.name)
    assert skipped == FIGURES_SKIPPED
    assert {"04_additive_bias-MultiHeadAttention", "04_heads_in_the_batch-MultiHeadAttention",
            "04_loop_over_heads-MultiHeadAttention"} <= drawn


# The demos that train run in full behind a few correct answers in other styles than the solution's:
# a module with its weights renormalised after the mask, heads by einsum, functional linear layers.
TRAINED = ("02_functional_linear-SelfAttention_v2", "03_renormalised_weights-CausalAttention",
           "04_einsum_heads-MultiHeadAttention")


@pytest.mark.slow
@pytest.mark.parametrize("name", TRAINED)
def test_the_trained_demos_draw_weights_behind_a_correct_answer_in_another_style(name, monkeypatch):
    [variant] = [variant for variant in VARIANTS if variant.name == name]
    assert demo_problems(variant, monkeypatch, trained=True) == []


DROPS_THE_SCORES = ("attention_drops_the_scores", "multi_head_drops_the_scores")


@pytest.mark.parametrize("name", DROPS_THE_SCORES)
def test_dropout_on_the_scores_fails_the_check_that_the_demos_would_otherwise_pass(name, monkeypatch):
    """Issue 40: dropout applied to the scores before the softmax passed the check, and the
    trained-head figure drew raw scores as attention weights. Two guards now hold: the check fails
    and names the mistake, in every language, and even without the check's guard on what
    self.dropout receives the figures draw nothing that is no attention weights (issue 41's
    reviewer: "weights" of 36), they skip with one line."""
    [variant] = [variant for variant in VARIANTS if variant.name == name]
    with monkeypatch.context() as unguarded:
        unguarded.setattr(modules, "expect_demo_weights", lambda *args: None)
        shown = demo_problems(variant, unguarded)
    assert not shown, shown
    for language in LANGUAGES:
        result = run_check(variant.stage, definitions(variant.assignment, variant), language)
        assert not result.passed
        with speaking(language):
            assert text("is.weights") in result.message
            assert result.hint == hint_text("dropout_before_softmax")


@pytest.mark.parametrize("stage", ["CausalAttention", "MultiHeadAttention"])
def test_no_correct_answer_in_another_style_is_told_that_the_demos_cannot_read_its_weights(stage):
    """The guards judge what self.dropout receives as weights in whatever layout of batch and
    heads (folded into the batch, one call per head), and eval mode as the identity: they never
    fail a correct answer, which the grader gives full marks."""
    correct = [variant for variant in _of_stage(stage) if isinstance(variant.answer, str)]
    assert correct
    with speaking("en"):
        guards = (text("what.demo_weights", call=""), text("what.eval_mode", call=""))
    for variant in correct:
        message = run_check(stage, definitions(variant.assignment, variant), "en").message
        assert not any(guard.strip() in message for guard in guards), (variant.name, message)
