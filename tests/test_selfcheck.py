"""The public self-checks: pass on the solutions, fail politely on stubs and known mistakes."""

from __future__ import annotations

import ast
import inspect
import re
import textwrap
import warnings
from pathlib import Path

import pytest
import torch
from kit_notebooks import load_definitions

from autograder.findings.finding import finding
from autograder.findings.render import render
from autograder.notebooks.variants import answer_cell, load_solution, with_answer, with_replacement
from autograder.paths import solution_notebook, student_notebook
from autograder.reading.notebook import cell_source, extract_definitions
from autograder.student import selfcheck
from autograder.student.curriculum import ASSIGNMENTS, STAGES_BY_ASSIGNMENT, all_stages
from autograder.student.example import your_journey_inputs, your_journey_tokens
from autograder.student.language import LANGUAGES
from autograder.student.mistakes import MISTAKES
from autograder.student.selfcheck import CheckResult, catalog, check, differences, figures, hint, run_check, self_checks
from autograder.student.selfcheck.figures import draw, use_fonts
from autograder.student.selfcheck.hints import CODE, DESIGNED, FUNCTIONS, IDEAS
from autograder.student.selfcheck.runner import hint_line
from autograder.worker.probe_server import load_definitions as worker_load_definitions

STAGE_PARAMS = [(assignment, stage) for assignment in ASSIGNMENTS for stage in STAGES_BY_ASSIGNMENT[assignment]]


@pytest.fixture(scope="module")
def solution_definitions():
    return {assignment: load_definitions(solution_notebook(assignment))[0] for assignment in ASSIGNMENTS}


@pytest.fixture(scope="module")
def stub_definitions():
    return {assignment: load_definitions(student_notebook(assignment))[0] for assignment in ASSIGNMENTS}


def test_every_stage_has_one_check():
    assert list(selfcheck.CHECKS) == all_stages()


@pytest.mark.parametrize(("assignment", "stage"), STAGE_PARAMS)
def test_solution_passes(solution_definitions, assignment, stage):
    result = run_check(stage, solution_definitions[assignment])
    assert result == CheckResult(True, f"✅ {stage} passed its public check")


@pytest.mark.parametrize(("assignment", "stage"), STAGE_PARAMS)
def test_stub_fails_as_not_implemented(stub_definitions, assignment, stage):
    result = run_check(stage, stub_definitions[assignment])
    assert not result.passed
    assert result.message.startswith(f"❌ {stage}: not implemented yet")
    assert "\n" not in result.message


def test_check_reads_the_callers_globals_and_prints_one_line(capsys):
    namespace = {"check": check}
    exec("def softmax_naive(x, dim=-1):\n    raise NotImplementedError('softmax_naive: todo')\n", namespace)
    exec("returned = check('softmax_naive')", namespace)
    assert namespace["returned"] is None
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    assert out.startswith("❌ softmax_naive: not implemented yet")


def test_check_accepts_an_explicit_namespace(capsys, solution_definitions):
    assert check("merge_heads", solution_definitions["04_multi_head_attention"]) is None
    assert capsys.readouterr().out == "✅ merge_heads passed its public check\n"


def test_unknown_and_undefined_stages_are_explained():
    unknown = run_check("softmax", {})
    assert not unknown.passed
    assert "softmax_naive" in unknown.message
    missing = run_check("softmax_naive", {})
    assert not missing.passed
    assert "not defined yet" in missing.message


@pytest.mark.parametrize(("top", "passes"), [
    ("_FUTURE = torch.ones(16, 16, dtype=torch.bool).triu(1)", False),  # computed: the grader never has it
    ("_SIZE = 16", True),  # a simple constant: loaded
])
def test_a_stage_reading_a_value_its_answer_cell_computes_fails_as_the_grader_does(top, passes):
    """blind28/058: a mask made once at the top of causal_mask's answer cell passed here (the kernel
    has it) and was a NameError for the grader, which loads no value a call computes."""
    cell = (f"{top}\n\ndef causal_mask(num_tokens, device=None):\n"
            "    return torch.ones(num_tokens, num_tokens, dtype=torch.bool, device=device).triu(_SIZE // 16)\n"
            if passes else
            f"{top}\n\ndef causal_mask(num_tokens, device=None):\n"
            "    return _FUTURE[:num_tokens, :num_tokens].to(device)\n")
    namespace = {"torch": torch, "In": ["", "import torch", cell]}
    exec(cell, namespace)  # the cell, as the kernel ran it
    told = run_check("causal_mask", namespace)
    assert told.passed is passes, told.message
    if not passes:
        assert "_FUTURE, which its answer cell sets to a value a call computes" in told.message


def test_a_stage_whose_cell_did_not_run_for_a_syntax_error_is_told_which_line():
    """A reviewer's answer cell raised IndentationError; the check said "run the cell that defines
    it", though they had. The kernel's history (IPython's ``In``) holds the cell that ran: the
    check names the line Python could not read. A cell of IPython's own syntax (%magic) is not
    read as Python, and a stage whose cell never ran is still told to run it."""
    broken = "def softmax_naive(x, dim=-1):\n    e = torch.exp(x)\n      return e / e.sum(dim, keepdim=True)\n"
    told = run_check("softmax_naive", {"In": ["", "import torch", broken]})
    assert not told.passed
    assert "line 3 (unexpected indent)" in told.message
    assert "not defined yet" not in told.message
    magic = "%%time\ndef softmax_naive(x, dim=-1):\n    return x\n"
    assert "not defined yet" in run_check("softmax_naive", {"In": ["", magic]}).message
    assert "not defined yet" in run_check("softmax_naive", {"In": ["", "import torch"]}).message


def test_any_exception_becomes_one_line_with_its_type_and_the_students_line():
    def softmax_naive(x, dim=-1):
        raise ZeroDivisionError("first line\nsecond line")

    result = run_check("softmax_naive", {"softmax_naive": softmax_naive})
    assert result == CheckResult(False, "❌ softmax_naive: raised ZeroDivisionError: first line (in your line"
                                 ' `raise ZeroDivisionError("first line\\nsecond line")`)', found=True,
                                 finding="raised")
    assert hint_line("softmax_naive", {"softmax_naive": softmax_naive}).startswith(
        f"💡 softmax_naive (hint 1 of 3): {IDEAS['softmax_naive']}")


def test_a_stub_of_another_stage_is_named():
    def split_heads(x, num_heads):
        raise NotImplementedError("split_heads: replace this line with your code")

    def merge_heads(x):
        return split_heads(x, 2)

    result = run_check("merge_heads", {"merge_heads": merge_heads})
    assert "not implemented yet" in result.message
    assert "split_heads: replace this line" in result.message


def _softmax_over_dim_0(x, dim=-1):
    return torch.exp(x) / torch.exp(x).sum(dim=0, keepdim=True)


def _unscaled_scores(queries, keys):
    return queries @ keys.transpose(-2, -1)


def _scores_divided_by_d_k(queries, keys):
    return queries @ keys.transpose(-2, -1) / keys.shape[-1]


def _keys_dot_t(queries, keys):
    return queries @ keys.T / keys.shape[-1] ** 0.5


def _hidden(attn_scores):
    """The future of the scores, on their device: the mutants below hold one mistake each."""
    return torch.ones(attn_scores.shape[-2:], dtype=torch.bool, device=attn_scores.device).triu(diagonal=1)


def _unscaled_masked_softmax(attn_scores, d_k):
    return torch.softmax(attn_scores.masked_fill(_hidden(attn_scores), -torch.inf), dim=-1)


def _masked_softmax_divided_by_d_k(attn_scores, d_k):
    return torch.softmax(attn_scores.masked_fill(_hidden(attn_scores), -torch.inf) / d_k, dim=-1)


def _masked_softmax_filled_with_zero(attn_scores, d_k):
    return torch.softmax(attn_scores.masked_fill(_hidden(attn_scores), 0.0) / d_k**0.5, dim=-1)


def _masked_softmax_in_place(attn_scores, d_k):
    return torch.softmax(attn_scores.masked_fill_(_hidden(attn_scores), -torch.inf) / d_k**0.5, dim=-1)


def _masked_without_renormalising(attn_weights):
    return torch.tril(attn_weights)


def _stable_without_keepdim(x, dim=-1):
    shifted = torch.exp(x - x.max(dim=dim).values)
    return shifted / shifted.sum(dim=dim, keepdim=True)


def _dropout_in_place(x, p, training=True, generator=None):
    """Right in every other way: the change in place is told once all else passes, as the grader does."""
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"p must be between 0 and 1, got {p}")
    if not training or p == 0.0:
        return x
    if p == 1.0:
        return torch.zeros_like(x)
    keep = torch.rand(x.shape, generator=generator, device=x.device, dtype=x.dtype) >= p
    return x.mul_(keep).div_(1 - p)


def _dropout_times_keep_probability(x, p, training=True, generator=None):
    return x * (torch.rand(x.shape, generator=generator) >= p) * (1 - p)


def _dropout_rejecting_p_of_0_and_1(x, p, training=True, generator=None):
    if not 0 < p < 1:
        raise ValueError(f"p must be in (0, 1), got {p}")
    return x * (torch.rand(x.shape, generator=generator) >= p) / (1 - p) if training else x


def _dropout_dividing_zero_by_zero(x, p, training=True, generator=None):
    """p = 1 divides by 1 - p = 0 (an early `if p == 1` missing)."""
    if not 0 <= p <= 1:
        raise ValueError(f"p must be in [0, 1], got {p}")
    return x * (torch.rand(x.shape, generator=generator) >= p) / (1 - p) if training else x


def _loop_writing_into_its_input(x):
    """out = x: each step reads means that earlier steps wrote over the input."""
    out = x
    for t in range(x.shape[-2]):
        out[..., t, :] = x[..., : t + 1, :].mean(dim=-2)
    return out


def _dropout_keeping_with_probability_p(x, p, training=True, generator=None):
    """p and 1 - p swapped throughout: kept with probability p, survivors scaled by 1 / p."""
    return x * (torch.rand(x.shape, generator=generator) < p) / p


def _tril_mask(num_tokens, device=None):
    return torch.ones(num_tokens, num_tokens, device=device).tril().bool()


def _dropout_without_rescaling(x, p, training=True, generator=None):
    return x * (torch.rand(x.shape, generator=generator) >= p)


def _split_without_transpose(x, num_heads):
    b, num_tokens, d_out = x.shape
    return x.view(b, num_heads, num_tokens, d_out // num_heads)


def _merge_without_contiguous(x):
    b, num_heads, num_tokens, head_dim = x.shape
    return x.transpose(1, 2).view(b, num_tokens, num_heads * head_dim)


def _unnormalised_prefix_sum(x):
    num_tokens = x.shape[1]
    return torch.tril(torch.ones(num_tokens, num_tokens)) @ x


def _module(assignment: str, stage: str, old: str, new: str):
    """The solution's ``stage`` class with one substitution in its answer cell."""
    notebook = with_replacement(load_solution(assignment), stage, old, new)
    namespace, failures = worker_load_definitions([vars(block) for block in extract_definitions(notebook).blocks])
    assert failures == []
    return namespace[stage]


def _causal_attention(old: str, new: str):
    return _module("03_causal_attention", "CausalAttention", old, new)


def _multi_head_attention(old: str, new: str):
    return _module("04_multi_head_attention", "MultiHeadAttention", old, new)


# Wrong answers and the hint their public check gives: a named mistake of the catalogue (the id) when
# the output is one of its outputs on the check's input, the stage's idea (None) when nothing is known.
KNOWN_MISTAKES = [
    ("softmax_naive", _softmax_over_dim_0, "softmax_wrong_dim"),
    ("scaled_dot_product_scores", _unscaled_scores, "no_sqrt_scaling"),
    ("scaled_dot_product_scores", _scores_divided_by_d_k, "scaled_by_d_k"),
    ("scaled_dot_product_scores", _keys_dot_t, "keys_T_on_batch"),
    ("masked_softmax", _unscaled_masked_softmax, "no_sqrt_scaling"),
    ("masked_softmax", _masked_softmax_divided_by_d_k, "scaled_by_d_k"),
    ("masked_softmax", _masked_softmax_filled_with_zero, "mask_filled_with_zero"),
    ("masked_softmax", _masked_softmax_in_place, "input_modified_in_place"),
    ("mask_and_renormalize", _masked_without_renormalising, "mask_after_softmax"),
    ("causal_mask", _tril_mask, "mask_inverted"),
    ("inverted_dropout", _dropout_without_rescaling, "dropout_not_rescaled"),
    ("softmax_stable", _stable_without_keepdim, "softmax_missing_keepdim"),
    ("inverted_dropout", _dropout_in_place, "input_modified_in_place"),
    ("inverted_dropout", _dropout_times_keep_probability, "dropout_multiplied_by_keep"),
    ("inverted_dropout", _dropout_keeping_with_probability_p, "dropout_keep_probability"),
    ("inverted_dropout", _dropout_rejecting_p_of_0_and_1, "valid_p_rejected"),
    ("inverted_dropout", _dropout_dividing_zero_by_zero, "dropout_p1_division"),
    ("split_heads", _split_without_transpose, "view_without_transpose"),
    ("merge_heads", _merge_without_contiguous, "view_needs_contiguous"),
    ("causal_average_matmul", _unnormalised_prefix_sum, "prefix_sum"),
]


@pytest.mark.parametrize(("stage", "wrong", "expected_hint"), KNOWN_MISTAKES,
                         ids=[f"{stage}-{wrong.__name__}" for stage, wrong, _ in KNOWN_MISTAKES])
def test_known_mistakes_get_their_hint_only_when_asked_for(stage, wrong, expected_hint, capsys):
    """The check says what it found; the fix waits for hint("<stage>")."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # keys.T on a batch warns before it fails
        result = run_check(stage, {stage: wrong})
        assert not result.passed
        assert result.message.startswith(f"❌ {stage}: ")
        assert "\n" not in result.message
        assert result.hint == catalog.texts("en")[expected_hint]
        said = catalog.found_text(expected_hint)  # what the mistake looks like, on the line itself
        assert result.message.endswith(f"Likely mistake: {said}")
        fix = result.hint.removeprefix(said.rstrip(".")).strip(" .:")
        assert not fix or fix not in result.message  # the fix waits for hint()
        check(stage, {stage: wrong})
        caption = f"   📊 {catalog.text(figures.CAPTIONS[result.figure.mistake])}\n" if result.figure else ""
        assert capsys.readouterr().out == (f'{result.message}\n   💡 Stuck? hint("{stage}") gives the idea;'
                                           f' hint("{stage}", 2) names the functions.\n{caption}')
        globals()[stage] = wrong  # hint() looks the stage up in its caller's globals, as in a notebook
        try:
            hint(stage)
            first = capsys.readouterr().out
            hint(stage, 3)
            third = capsys.readouterr().out
        finally:
            del globals()[stage]
    # Tier 1 says what to fix in words (or gives the idea), never the check's "Likely mistake" again.
    # Where the mistake's own fix shows code, tier 1 says it in words (``remedy.<mistake>``). On a
    # stage the student designs, the fix is a recipe: tier 1 gives the idea.
    said = IDEAS[stage] if stage in DESIGNED else (
        catalog.remedy(result.hint) or catalog.words_fix(result.mistake) or IDEAS[stage])
    assert catalog.found_text(expected_hint) not in first
    assert first == (f"💡 {stage} (hint 1 of 3): {said}\n"
                     f'   More: hint("{stage}", 2) names the functions that do it.\n')
    assert not catalog.holds_code(said)
    # Tier 3: what the check found, then the skeleton apart from it, so that it never reads as code.
    assert third.startswith(f"What the check found: {result.hint}\n\n💡 {stage} (hint 3 of 3)")
    assert third.rstrip("\n").endswith(CODE[stage].rstrip("\n"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_designed_stage_keeps_a_named_mistakes_fix_for_tier_3(language):
    """split_heads by a view alone is named, and its fix is the design the student is to find
    (separate the features, then swap two axes): tier 1 gives the stage's idea instead, and tier 3
    says what the check found, labelled, above the skeleton."""
    def split_heads(x, num_heads):
        b, num_tokens, d_out = x.shape
        return x.view(b, num_heads, num_tokens, d_out // num_heads)

    namespace = {"split_heads": split_heads}
    result = run_check("split_heads", namespace, language)
    assert result.mistake == "view_without_transpose"
    fix = catalog.remedy(result.hint)
    assert fix
    first = hint_line("split_heads", namespace, language, 1)
    with catalog.speaking(language):
        assert catalog.tier_text("split_heads", 1) in first
        assert fix not in first
        assert hint_line("split_heads", namespace, language, 3).startswith(
            catalog.text("hint_found", finding=result.hint) + "\n\n")


def test_the_catalogue_names_dividing_by_the_square_root_of_d_out_in_multi_head_attention():
    """head_dim is 1 in the check's module: sqrt(d_out) = sqrt(2) is the catalogue's wrong size."""
    wrong = _multi_head_attention("attn_scores / keys.shape[-1] ** 0.5", "attn_scores / self.d_out ** 0.5")
    result = run_check("MultiHeadAttention", {"MultiHeadAttention": wrong, **_split_and_merge()})
    assert result.hint == catalog.texts("en")["scaled_by_wrong_size"]


def _split_and_merge() -> dict:
    namespace = load_definitions(solution_notebook("04_multi_head_attention"))[0]
    return {name: namespace[name] for name in ("split_heads", "merge_heads")}


@pytest.mark.parametrize("module", ["CausalAttention", "MultiHeadAttention"])
def test_a_module_that_leaks_one_future_token_is_caught_and_named(module):
    """A mask that hides only from two steps ahead (blind18 066): changing the later tokens shows
    the leak, the catalogue names it (one diagonal too high), and the figure lights the cell above
    the diagonal."""
    old = "self.mask[:num_tokens, :num_tokens]"
    wrong = (_causal_attention if module == "CausalAttention" else _multi_head_attention)(
        old, "self.mask[:num_tokens, :num_tokens].triu(diagonal=2)")
    namespace = {module: wrong, **(_split_and_merge() if module == "MultiHeadAttention" else {})}
    result = run_check(module, namespace)
    assert not result.passed
    assert "after changing the tokens from" in result.message
    assert result.hint == catalog.texts("en")["mask_shows_next"]
    assert result.figure is not None
    assert figures.CAPTIONS[result.figure.mistake] == "figure.future"  # drawn as the future seen
    assert result.figure.yours.diagonal(offset=1).sum() > 0.1  # the cell just above the diagonal lights up
    assert torch.equal(result.figure.right.triu(diagonal=1), torch.zeros(6, 6, dtype=torch.float64))


@pytest.mark.parametrize(("stage", "wrong", "mistake", "shown"), [
    ("softmax_naive", _softmax_over_dim_0, "softmax_wrong_dim", "columns"),
    ("mask_and_renormalize", _masked_without_renormalising, "mask_after_softmax", "pale rows"),
    ("masked_softmax", _masked_softmax_filled_with_zero, "mask_filled_with_zero", "upper triangle"),
])
def test_a_recognised_mistake_in_attention_weights_comes_with_its_figure(stage, wrong, mistake, shown, tmp_path):
    result = run_check(stage, {stage: wrong})
    figure = result.figure
    assert figure is not None
    assert figure.mistake == mistake
    assert figure.yours.shape == figure.right.shape == (6, 6)
    if shown == "columns":  # each column of the student's weights sums to 1, each row of the right ones
        torch.testing.assert_close(figure.yours.sum(dim=0), torch.ones(6, dtype=torch.float64))
    elif shown == "pale rows":  # rows below 1, the last one whole
        assert (figure.yours.sum(dim=-1)[:-1] < 0.99).all()
    else:
        assert figure.yours.triu(diagonal=1).sum() > 1
    torch.testing.assert_close(figure.right.sum(dim=-1), torch.ones(6, dtype=torch.float64))
    for language in LANGUAGES:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # a glyph missing from every font is a warning: none may be
            use_fonts(language)
            with catalog.speaking(language):
                drawn = draw(figure, catalog.text)
            drawn.savefig(tmp_path / f"{language}.png")
        titles = [text.get_text() for ax in drawn.axes for text in (ax.title,)] + [drawn._suptitle.get_text()]
        assert catalog.texts(language)[figures.CAPTIONS[mistake]] in titles


FIRST_CHECK_IN_A_KERNEL = """
import sys
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output
import torch
from autograder.student.selfcheck import check

def softmax_naive(x, dim=-1):  # the softmax over the wrong dimension: a figure shows its columns
    exp_x = torch.exp(x)
    return exp_x / exp_x.sum(dim=0, keepdim=True)

InteractiveShell.instance()
with capture_output() as captured:
    check("softmax_naive", {"softmax_naive": softmax_naive}, "{language}")
print(repr([sorted(output.data) for output in captured.outputs]))
print("matplotlib.pyplot" in sys.modules)
import matplotlib.figure, gc
gc.collect()
print(sum(isinstance(thing, matplotlib.figure.Figure) for thing in gc.get_objects()))
"""


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_mistakes_figure_shows_as_an_image_on_the_first_check_before_any_plot(language):
    """In a fresh IPython shell that has drawn nothing, the check publishes a PNG (not the text
    "<Figure size ...>"), without pyplot, and keeps no figure alive."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", FIRST_CHECK_IN_A_KERNEL.replace("{language}", language)],
                          capture_output=True, text=True, timeout=300, cwd=Path(__file__).resolve().parent.parent)
    assert done.returncode == 0, done.stderr
    outputs, pyplot_loaded, figures_alive = done.stdout.strip().splitlines()[-3:]
    assert "'image/png'" in outputs
    assert pyplot_loaded == "False"
    assert figures_alive == "0"


def test_outside_a_notebook_a_mistakes_figure_is_its_caption_in_words(capsys):
    check("softmax_naive", {"softmax_naive": _softmax_over_dim_0})
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == "   📊 " + catalog.texts("en")["figure.columns"]


def test_the_nan_that_proves_an_overflow_is_located_even_beyond_the_values_shown():
    def softmax_stable(x, dim=-1):  # the maximum of the whole tensor: rows far below it give 0 / 0
        exp_x = torch.exp(x - x.max())
        return exp_x / exp_x.sum(dim=dim, keepdim=True)

    result = run_check("softmax_stable", {"softmax_stable": softmax_stable})
    assert "not finite, the first nan at (1, 0)" in result.message
    assert result.hint == catalog.texts("en")["softmax_global_max"]


def test_a_hint_before_any_answer_gets_the_student_started_and_none_is_needed_after(
        stub_definitions, solution_definitions, capsys):
    stubbed = run_check("causal_mask", stub_definitions["03_causal_attention"])
    assert stubbed.hint is None
    assert not stubbed.found
    hint("causal_mask", namespace=stub_definitions["03_causal_attention"])
    assert capsys.readouterr().out.startswith(f"💡 causal_mask (hint 1 of 3): {IDEAS['causal_mask']}\n")
    hint("causal_mask", namespace=solution_definitions["03_causal_attention"])
    assert capsys.readouterr().out == "✅ causal_mask passes its public check: no hint needed.\n"
    for tier in (2, 3):  # no tier is opened, shown or counted for a stage that passes
        hint("causal_mask", tier, namespace=solution_definitions["03_causal_attention"])
        assert capsys.readouterr().out == "✅ causal_mask passes its public check: no hint needed.\n"


def test_tier_1_never_gives_the_formula_to_write():
    """The survivors' factor is what notebook 3 asks students to derive: a fix that writes it out
    is not a tier-1 hint, which then gives the stage's idea instead."""
    assert catalog.remedy(catalog.texts("en")["dropout_scaled_by_p"]) is None
    assert catalog.remedy(catalog.texts("en")["dropout_not_rescaled"]) is None
    assert catalog.remedy("the rows were not normalised: divide each row by its own sum.") == (
        "Divide each row by its own sum.")


def test_hints_come_in_three_tiers_the_idea_the_functions_then_code(stub_definitions, capsys):
    namespace = stub_definitions["01_attention_scores"]
    for tier, expected in ((1, IDEAS["softmax_stable"]), (2, FUNCTIONS["softmax_stable"]), (3, CODE["softmax_stable"])):
        hint("softmax_stable", tier, namespace)
        shown = capsys.readouterr().out
        assert expected in shown
        assert ("hint 3 of 3" in shown) == (tier == 3)
    hint("softmax_stable", 4, namespace)
    assert capsys.readouterr().out == 'hint("softmax_stable", 4): the hints come in three tiers, 1, 2 and 3.\n'


def test_every_stage_has_three_tiers_in_every_language_and_only_the_third_shows_code():
    assert set(IDEAS) == set(FUNCTIONS) == set(CODE) == set(all_stages())
    for stage in all_stages():
        ast.parse(textwrap.dedent(CODE[stage]))  # the code of tier 3 is Python
        for language in LANGUAGES:
            with catalog.speaking(language):
                idea, functions = catalog.tier_text(stage, 1), catalog.tier_text(stage, 2)
            assert idea
            assert functions
            assert idea != functions
            spans = re.findall(r"`([^`]*)`", idea)
            assert all(span.isidentifier() for span in spans), f"{language} {stage}: the idea names no code"
            assert "`" in functions, f"{language} {stage}: the second tier names the functions"


def test_self_checks_bind_check_and_hint_in_one_language(capsys):
    bound = self_checks("pt")
    namespace = {"check": bound, "hint": bound.hint}
    exec("def causal_mask(num_tokens, device=None):\n    import torch\n"
         "    return torch.ones(num_tokens, num_tokens).tril().bool()\n", namespace)
    exec("check('causal_mask')\nhint('causal_mask')", namespace)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("❌ causal_mask: ")
    assert lines[1] == '   💡 Travou? hint("causal_mask") dá a ideia; hint("causal_mask", 2) diz quais funções usar.'
    # Tier 1 gives the idea, in Portuguese: causal_mask is a stage the student designs.
    with catalog.speaking("pt"):
        assert lines[2] == f"💡 causal_mask (dica 1 de 3): {catalog.tier_text('causal_mask', 1)}"


def _softmax_shifted_by(statistic):
    def softmax_stable(x, dim=-1):
        exp_x = torch.exp(x - statistic(x, dim))
        return exp_x / exp_x.sum(dim=dim, keepdim=True)
    return softmax_stable


@pytest.mark.parametrize(("statistic", "mistake"), [
    (lambda x, dim: x.mean(dim=dim, keepdim=True), "softmax_shift_not_max"),
    (lambda x, dim: x.min(dim=dim, keepdim=True).values, "softmax_shift_not_max"),
    (lambda x, dim: x.max(), "softmax_global_max"),
], ids=["mean", "min", "global max"])
def test_softmax_stable_must_subtract_each_rows_maximum(statistic, mistake):
    """Subtracting another statistic is named as what it is, never as "the exponentials overflowed"."""
    result = run_check("softmax_stable", {"softmax_stable": _softmax_shifted_by(statistic)})
    assert not result.passed
    assert result.hint == catalog.texts("en")[mistake]
    right = _softmax_shifted_by(lambda x, dim: x.amax(dim=dim, keepdim=True))
    assert run_check("softmax_stable", {"softmax_stable": right}).passed


def _naive_with_the_maximum_subtracted(x, dim=-1):
    exp_x = torch.exp(x - x.amax(dim=dim, keepdim=True))
    return exp_x / exp_x.sum(dim=dim, keepdim=True)


@pytest.mark.parametrize(("stage", "answer", "expected_hint"), [
    ("softmax_naive", lambda x, dim=-1: torch.softmax(x, dim=dim), "library_softmax"),
    ("softmax_naive", lambda x, dim=-1: x.softmax(dim), "library_softmax"),
    ("softmax_naive", _naive_with_the_maximum_subtracted, "hint.naive_overflows"),
    ("softmax_stable", lambda x, dim=-1: torch.nn.functional.softmax(x, dim=dim), "library_softmax"),
    ("softmax_stable", lambda x, dim=-1: torch.log_softmax(x, dim=dim).exp(), "library_softmax"),
], ids=["naive-torch.softmax", "naive-Tensor.softmax", "naive-stable", "stable-F.softmax", "stable-log_softmax"])
def test_the_softmaxes_are_written_from_the_formula(stage, answer, expected_hint):
    """Right values are not enough: a softmax of torch's costs the "from the formula" check, and a
    naive softmax that does not overflow where the formula does is not the formula."""
    result = run_check(stage, {stage: answer})
    assert not result.passed
    assert result.hint == catalog.texts("en")[expected_hint]


def test_a_right_copy_passes_however_it_is_written():
    def copy_v2_weights_into_v1(sa_v2, sa_v1):
        for name in ("W_query", "W_key", "W_value"):
            getattr(sa_v1, name).data = getattr(sa_v2, name).weight.detach().t().clone()

    assert run_check("copy_v2_weights_into_v1", {"copy_v2_weights_into_v1": copy_v2_weights_into_v1}).passed


def test_checks_leave_the_students_random_stream_alone(solution_definitions):
    torch.manual_seed(0)
    expected = torch.rand(3)
    torch.manual_seed(0)
    run_check("SelfAttention_v1", solution_definitions["02_self_attention"])
    assert torch.equal(torch.rand(3), expected)


def test_selfcheck_holds_no_reference_and_never_reads_solutions():
    source = "".join(path.read_text() for path in Path(selfcheck.__file__).parent.glob("*.py"))
    assert "solution_notebook" not in source
    assert "SOLUTIONS_DIR" not in source
    assert "load_reference" not in source


# Lines any code may share with a solution: they compute nothing.
STRUCTURAL_LINES = {"super().__init__()", "withtorch.no_grad():"}


def _code_lines(source: str) -> set[str]:
    """The lines of ``source`` without comments and spaces, the short and structural ones left out."""
    lines = {re.sub(r"\s+", "", line.split("#")[0]) for line in source.splitlines()}
    return {line for line in lines if len(line) >= 12} - STRUCTURAL_LINES


def _solution_lines() -> dict[str, str]:
    """Every line of every solution region, by its text without spaces, with its stage."""
    lines = {}
    for assignment in ASSIGNMENTS:
        for stage in STAGES_BY_ASSIGNMENT[assignment]:
            region = cell_source(answer_cell(load_solution(assignment), stage)).split("### BEGIN SOLUTION")[1:]
            for part in region:
                lines.update(dict.fromkeys(_code_lines(part.split("### END SOLUTION")[0]), stage))
    return lines


# What computes an answer of a stage; a check that needs such a value has it written out.
ANSWER_IDIOMS = ("triu(", "tril(", ".transpose(1,2)", ".transpose(2,3)", ".view(", "register_buffer(",
                 "torch.softmax(x", "@inputs.T", "weight.T", "weight.detach().T")


class _WithoutStrings(ast.NodeTransformer):
    def visit_Constant(self, node):  # the hints may name the functions a student needs
        return ast.Constant("") if isinstance(node.value, str) else node


def test_no_self_check_computes_an_answer():
    """Expected values are the book's numbers, tensors written out and invariants: the code
    of the student package holds no line of a solution and none of the idioms that compute one."""
    solution_lines = _solution_lines()
    for path in sorted(Path(selfcheck.__file__).parent.glob("*.py")):
        tree = _WithoutStrings().visit(ast.parse(path.read_text(encoding="utf-8")))
        lines = _code_lines(ast.unparse(tree))
        assert not {line: solution_lines[line] for line in lines & set(solution_lines)}, path.name
        assert not [idiom for idiom in ANSWER_IDIOMS if any(idiom in line for line in lines)], path.name


def test_running_example_is_read_from_the_kit_not_the_working_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    inputs = your_journey_inputs(torch.float64)
    assert inputs.shape == (6, 3)
    assert inputs.dtype == torch.float64
    assert inputs[1].tolist() == [0.55, 0.87, 0.66]
    assert your_journey_inputs().dtype == torch.float32
    assert your_journey_tokens() == ["Your", "journey", "starts", "with", "one", "step"]


def test_stage_hints_and_mistake_ids_never_share_a_key():
    """A hint is a stage's (``hint.*``) or a mistake's (its id): one key, one text."""
    assert not set(selfcheck.MESSAGES) & set(MISTAKES)


def test_no_hint_teaches_the_grader_instead_of_attention():
    """A hint gives a reason a student can use ("a function must work for any length"), never the
    grader's mechanics ("the grader tries other lengths")."""
    for language, word in (("en", "grader"), ("zh", "评分程序"), ("pt", "corretor")):
        with catalog.speaking(language):
            texts = [*catalog.texts(language).values(), *(catalog.tier_text(stage, tier) for stage in all_stages()
                                                          for tier in (1, 2))]
        assert not [text for text in texts if word in text], language


def test_a_copy_by_new_parameters_passes_too():
    """Exercise 3.1 accepts both ways: copying into v1's parameters, or giving it new ones."""
    def copy_v2_weights_into_v1(sa_v2, sa_v1):
        for name in ("W_query", "W_key", "W_value"):
            setattr(sa_v1, name, torch.nn.Parameter(getattr(sa_v2, name).weight.T.detach().clone()))

    assert run_check("copy_v2_weights_into_v1", {"copy_v2_weights_into_v1": copy_v2_weights_into_v1}).passed


LEAKS = {  # a module that sees the future, three ways
    "no mask": ("attn_scores = attn_scores.masked_fill(future, -torch.inf)", "pass"),
    "a mask filled with 0": ("masked_fill(future, -torch.inf)", "masked_fill(future, 0.0)"),
    "a transposed mask": ("masked_fill(future, -torch.inf)", "masked_fill(future.T, -torch.inf)"),
}


@pytest.mark.parametrize("leak", LEAKS)
@pytest.mark.parametrize(("assignment", "stage"), [("03_causal_attention", "CausalAttention"),
                                                   ("04_multi_head_attention", "MultiHeadAttention")])
@pytest.mark.parametrize("language", ["en", "pt"])
def test_a_module_that_leaks_the_future_is_told_so_in_the_check_line(solution_definitions, assignment, stage,
                                                                     leak, language):
    """The notebooks promise it (NB3's and NB4's module prompts): the perturbation probe runs before
    the comparison with the book's numbers, so the line names the leak, not a value mismatch."""
    namespace = dict(solution_definitions[assignment])
    exec(cell_source(answer_cell(with_replacement(load_solution(assignment), stage, *LEAKS[leak]), stage)), namespace)
    result = run_check(stage, namespace, language)
    assert not result.passed
    with catalog.speaking(language):
        leaked = catalog.text("what.no_leak_first", later=1)
        assert leaked in result.message, result.message
        assert catalog.text("is.changed") in result.message
    assert result.figure is not None  # the leak drawn beside the right weights


def test_dropout_on_the_output_fails_the_public_check(solution_definitions):
    """The demos read the attention weights where they pass through self.dropout: dropout on the
    context vectors would have them draw (T, d_out) outputs as weights."""
    assignment, stage = "03_causal_attention", "CausalAttention"
    namespace = dict(solution_definitions[assignment])
    wrong = with_replacement(load_solution(assignment), stage, "attn_weights = self.dropout(attn_weights)\n"
                             "        return attn_weights @ values", "return self.dropout(attn_weights @ values)")
    exec(cell_source(answer_cell(wrong, stage)), namespace)
    result = run_check(stage, namespace)
    assert not result.passed
    assert "self.dropout" in result.message
    assert "(..., 6, 6)" in result.message
    assert result.hint == catalog.texts("en")["dropout_on_output"]


def _solution_code_atoms(stage: str) -> set[str]:
    """The pieces of code in the stage's solution (its master's answer cell and its tier-3 code)
    that a hint must not show before tier 3, without spaces: every call with arguments, every
    arithmetic or matrix product, every keyword argument, every slice."""
    assignment = next(assignment for assignment in ASSIGNMENTS if stage in STAGES_BY_ASSIGNMENT[assignment])
    source = textwrap.dedent(cell_source(answer_cell(load_solution(assignment), stage)))
    atoms = set()
    for tree in (ast.parse(source), ast.parse(textwrap.dedent(CODE[stage]))):
        for node in ast.walk(tree):
            plain = isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in {
                "super", "range", "len", "ValueError"}
            call = isinstance(node, ast.Call) and (node.args or node.keywords) and not plain
            if call or (isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult)):
                atoms.add(ast.unparse(node))
            elif isinstance(node, ast.keyword) and node.arg is not None and not isinstance(node.value, ast.Name):
                atoms.add(f"{node.arg}={ast.unparse(node.value)}")
            elif isinstance(node, ast.Subscript) and isinstance(node.slice, (ast.Slice, ast.Tuple)):
                atoms.add(ast.unparse(node))
    return {re.sub(r"\s+", "", atom) for atom in atoms}


def _findings_of(stage: str) -> set[str]:
    """The keys of the findings and named mistakes a stage's check can give as its hint."""
    import inspect

    from autograder.student.selfcheck import registry
    source = inspect.getsource(inspect.getmodule(registry.CHECKS[stage]))
    keys = set(re.findall(r'"(hint\.\w+)"', source))
    assignment = next(assignment for assignment in ASSIGNMENTS if stage in STAGES_BY_ASSIGNMENT[assignment])
    from autograder.student.selfcheck import known
    cases = [case for case in known._cases() if case == stage or case.startswith(stage)]
    read_from_weights = {"future_leak", "tokens_mixed_outside_weights", "softmax_wrong_dim", "mask_after_softmax",
                         "not_normalised", "dropout_missing", "dropout_on_output"}
    # An output of mistakes made together is keyed by their ids joined (the check names the first).
    named = {mistake for case in cases for together in known.mistakes(case)
             for mistake in together.split(known.COMBINED)}
    return keys | named | read_from_weights if assignment in ("03_causal_attention", "04_multi_head_attention") \
        else keys | named


@pytest.mark.parametrize("stage", all_stages())
def test_hint_tiers_1_and_2_hold_no_code_line_of_the_solution(stage):
    """Tier 1 is the idea in words (for a recognised mistake too); tier 2 names the functions; the
    code comes at tier 3 only, when asked for."""
    atoms = _solution_code_atoms(stage)
    assert atoms
    for language in LANGUAGES:
        with catalog.speaking(language):
            shown = {"idea": catalog.tier_text(stage, 1), "functions": catalog.tier_text(stage, 2)}
            for key in _findings_of(stage):
                said = catalog.diagnosis(catalog.texts(language)[key])
                if said is not None:
                    shown[key] = said
        for key, said in shown.items():
            flat = re.sub(r"\s+|`", "", said)
            assert not [atom for atom in atoms if atom in flat], (language, stage, key, said)
            if key != "functions":
                assert not catalog.holds_code(said), (language, stage, key, said)


# The leak probe names what the module's own attention weights show (issue 34, second review).
LEAKS_READ_FROM_THE_WEIGHTS = [
    ("CausalAttention", "attn_weights = torch.softmax(attn_scores / keys.shape[-1] ** 0.5, dim=-1)",
     "attn_weights = torch.softmax(queries @ keys.transpose(1, 2) / keys.shape[-1] ** 0.5, dim=-1)"
     ".masked_fill(future, 0.0)", "mask_after_softmax", "mask_after_softmax"),
    ("CausalAttention", "attn_weights = torch.softmax(attn_scores / keys.shape[-1] ** 0.5, dim=-1)",
     "attn_weights = torch.softmax(attn_scores / keys.shape[-1] ** 0.5, dim=1)", "softmax_wrong_dim",
     "softmax_wrong_dim"),
    ("MultiHeadAttention", "context = merge_heads(attn_weights @ values)",
     "context = (attn_weights @ values).reshape(x.shape[0], num_tokens, -1)", "tokens_mixed_outside_weights", None),
]


@pytest.mark.parametrize(("module", "old", "new", "mistake", "drawn"), LEAKS_READ_FROM_THE_WEIGHTS,
                         ids=[leak[3] for leak in LEAKS_READ_FROM_THE_WEIGHTS])
def test_a_leak_is_named_from_the_attention_weights_and_never_drawn_against_its_caption(module, old, new,
                                                                                        mistake, drawn):
    """Weights that hide the future but are normalised wrongly get their own name and figure;
    right weights in a module whose outputs still leak point away from the mask; the lit-triangle
    caption comes only over a lit triangle."""
    wrong = (_causal_attention if module == "CausalAttention" else _multi_head_attention)(old, new)
    namespace = {module: wrong, **(_split_and_merge() if module == "MultiHeadAttention" else {})}
    for language in LANGUAGES:
        result = run_check(module, namespace, language)
        assert not result.passed
        assert result.hint == catalog.texts(language)[mistake]
        assert catalog.texts(language)["future_leak"] not in result.hint
        if drawn is None:
            assert result.figure is None
        else:
            assert result.figure.mistake == drawn
            assert figures.CAPTIONS[drawn] != "figure.future"
            assert result.figure.yours.triu(diagonal=1).abs().sum() == 0  # the map shows no future
        assert result.hint in hint_line(module, namespace, language, 3)
        assert catalog.diagnosis(result.hint) not in hint_line(module, namespace, language, 1)
    assert "the output of token 0 after changing the tokens from 1 on" in run_check(module, namespace, "en").message
    if mistake == "tokens_mixed_outside_weights":
        fix = MISTAKES[mistake]
        assert "split and merged" in fix
        assert "the mask is not the problem" in fix


def _module_edited(assignment: str, stage: str, *edits: tuple[str, str]):
    """The solution's ``stage`` class with each (old, new) substitution made in its answer cell."""
    notebook = load_solution(assignment)
    for old, new in edits:
        notebook = with_replacement(notebook, stage, old, new)
    namespace, failures = worker_load_definitions([vars(block) for block in extract_definitions(notebook).blocks])
    assert failures == []
    return namespace[stage]


MHA_WEIGHTS_DROPPED = "attn_weights = self.dropout(attn_weights)  # (b, h, T, T)"


@pytest.mark.parametrize(("module", "edits", "mistake"), [
    ("CausalAttention", [("attn_weights = self.dropout(attn_weights)", "pass")], "dropout_missing"),
    ("MultiHeadAttention", [(MHA_WEIGHTS_DROPPED, "pass")], "dropout_missing"),
    ("MultiHeadAttention", [(MHA_WEIGHTS_DROPPED, "pass"),
                            ("return self.out_proj(context)", "return self.dropout(self.out_proj(context))")],
     "dropout_on_output"),
], ids=["CausalAttention-never", "MultiHeadAttention-never", "MultiHeadAttention-after-out_proj"])
def test_a_module_must_drop_its_attention_weights_through_self_dropout(module, edits, mistake):
    """The demos read the weights where they pass through self.dropout: a module that never drops
    them, or drops its output instead, fails its check, not a demo later."""
    assignment = "03_causal_attention" if module == "CausalAttention" else "04_multi_head_attention"
    wrong = _module_edited(assignment, module, *edits)
    namespace = {module: wrong, **(_split_and_merge() if module == "MultiHeadAttention" else {})}
    result = run_check(module, namespace)
    assert not result.passed
    assert "self.dropout" in result.message
    assert result.hint == catalog.texts("en")[mistake]


def test_a_module_causal_through_is_causal_without_a_mask_buffer_passes_as_the_grader_accepts_it():
    """NB4's grading section accepts no mask at all where is_causal=True makes the module causal,
    as the hidden tests do; a mask kept as a plain attribute is still caught, by its own name."""
    sdpa = ("nn.functional.scaled_dot_product_attention(queries, keys, values, is_causal=True,"
            " dropout_p=self.dropout.p if self.training else 0.0)")
    is_causal = _module_edited(
        "04_multi_head_attention", "MultiHeadAttention",
        ('self.register_buffer("mask", future)', "pass"),
        ("attn_scores = queries @ keys.transpose(2, 3)", "pass  #"),
        ("future = self.mask[:num_tokens, :num_tokens]", "pass  #"),
        ("attn_scores = attn_scores.masked_fill(future, -torch.inf)", "pass  #"),
        ("attn_weights = torch.softmax(attn_scores / keys.shape[-1] ** 0.5, dim=-1)", "pass"),
        (MHA_WEIGHTS_DROPPED, "pass"),
        ("context = merge_heads(attn_weights @ values)", f"context = merge_heads({sdpa})"))
    assert run_check("MultiHeadAttention", {"MultiHeadAttention": is_causal, **_split_and_merge()}).passed
    plain = _module_edited("03_causal_attention", "CausalAttention",
                           ('self.register_buffer("mask", future)', "self.future = future"),
                           ("self.mask[:num_tokens, :num_tokens]", "self.future[:num_tokens, :num_tokens]"))
    result = run_check("CausalAttention", {"CausalAttention": plain})
    assert "`future` as a plain attribute, not a registered buffer" in result.message
    assert result.hint in hint_line("CausalAttention", {"CausalAttention": plain}, "en", 3)


@pytest.mark.parametrize("language", LANGUAGES)
def test_tier_1_of_every_mistake_is_a_whole_sentence_that_keeps_code_spelt_as_code(language):
    """A hint starting with code keeps its spelling (nn.Linear, not Nn.Linear), and tier 1 (the
    part before the fix) closes every parenthesis it opens; keys.T on a batch is said in words."""
    texts = catalog.texts(language)
    assert texts["copy_without_transpose"].startswith("nn.Linear")
    for mistake in MISTAKES:
        said = catalog.diagnosis(texts[mistake])
        if said is not None:
            assert said.count("(") + said.count("（") == said.count(")") + said.count("）"), (mistake, said)
    assert texts["valid_p_rejected"].startswith("p = 0")  # code keeps its case
    for mistake in ("keys_T_on_batch", "transposed_product", "returned_weights", "scores_transposed",
                    "dropout_p1_division", "mask_plain_attribute", "missing_transpose", "max_returns_tuple",
                    "split_copies", "tokens_mixed_outside_weights"):
        assert catalog.diagnosis(texts[mistake]) is not None, mistake
    with catalog.speaking(language):
        for key in ("hint.split_view", "hint.split_error"):  # the idea, not the recipe
            assert catalog.diagnosis(catalog.hint_text(key)) is not None, key


def test_a_wrapper_with_one_head_is_told_how_many_heads_it_has():
    def one_head(d_in, context_length, dropout):
        module = torch.nn.Module()
        module.heads = torch.nn.ModuleList([torch.nn.Identity()])
        return module

    result = run_check("wrapper_with_2d_output", {"wrapper_with_2d_output": one_head})
    assert result.message.endswith("expected an nn.ModuleList of 2 heads, got ModuleList of length 1.")


def test_a_reveal_states_the_tolerance_and_the_parts_of_a_prediction_that_were_right(capsys):
    from autograder.student.predictions import Predictions

    for language, tolerance, part in (("en", "within overall ±10, position_1 ±10", "You got position_1 right."),
                                      ("zh", "overall ±10, position_1 ±10", "其中 position_1 预测对了。"),
                                      ("pt", "overall ±10, position_1 ±10", "Você acertou position_1.")):
        predictions = Predictions(language)
        predictions.predict("no_positions", overall=10, position_1=100)
        capsys.readouterr()
        predictions.reveal("no_positions", overall=48.5, position_1=100)
        shown = capsys.readouterr().out
        assert tolerance in shown
        assert part in shown
    predictions = Predictions("en")
    predictions.predict("largest_weight", 0.35)
    predictions.predict("wrapper_parameters", 1.77e6)
    predictions.reveal("largest_weight", 0.24)
    predictions.reveal("wrapper_parameters", 1769472)
    shown = capsys.readouterr().out
    assert "Not this time. (A number counts as right within ±0.06 of the measurement.)" in shown
    assert "Not this time. (The number must match exactly.)" in shown
    assert "You got" not in shown


def test_a_module_mixing_tokens_through_a_failing_split_heads_is_sent_to_that_stage(solution_definitions):
    """A wrong split_heads makes MultiHeadAttention's outputs leak with right-looking weights: the
    check points at the stage that fails its own check, not at the mask."""
    notebook = with_answer(load_solution("04_multi_head_attention"), "split_heads",
                           "def split_heads(x, num_heads):\n    b, num_tokens, d_out = x.shape\n"
                           "    return x.view(b, num_heads, num_tokens, d_out // num_heads)\n")
    namespace, problems = worker_load_definitions([vars(block) for block in extract_definitions(notebook).blocks])
    assert not problems
    result = run_check("MultiHeadAttention", namespace)
    assert result.hint == catalog.texts("en")["tokens_mixed_outside_weights"]
    assert result.message.endswith(catalog.text("calls_failing_stage", stage="MultiHeadAttention",
                                                stages="split_heads"))
    assert "merge_heads" not in result.message
    assert result.figure is None


def _mutant_definitions(name: str) -> dict:
    from mutations import CORPUS

    mutation = next(mutation for mutation in CORPUS if mutation.name == name)
    blocks = extract_definitions(mutation.notebook()).blocks
    return worker_load_definitions([vars(block) for block in blocks])[0]


@pytest.mark.parametrize(("mutation_name", "stage"), [("wrapper_plain_list", "wrapper_with_2d_output"),
                                                      ("multi_head_scaled_by_d_out", "gpt2_small_attention"),
                                                      ("split_without_transpose", "gpt2_small_attention")])
def test_a_stage_that_configures_a_broken_class_passes_its_own_check(mutation_name, stage):
    """gpt2_small_attention and wrapper_with_2d_output are checked on how they build their class (a
    recorder stands in for it), as the grader grades them: a mistake in the class is its own."""
    assert run_check(stage, _mutant_definitions(mutation_name)).passed


@pytest.mark.parametrize(("mutation_name", "stage", "told"), [
    ("wrapper_2d_one_head", "wrapper_with_2d_output",
     "the num_heads that wrapper_with_2d_output(3, 6, 0.0) builds its MultiHeadAttentionWrapper with:"
     " expected num_heads=2"),
    # GPT-2 small's settings are the exercise's to look up: the check names the setting, not its value.
    ("gpt2_eight_heads", "gpt2_small_attention", "the num_heads of gpt2_small_attention(): expected GPT-2 small's"
                                                 " value (Exercise 3.3 gives its settings), got 8"),
    ("gpt2_short_context", "gpt2_small_attention", "the context_length of gpt2_small_attention(): expected GPT-2"
                                                   " small's value"),
])
def test_a_stage_that_configures_its_class_wrongly_is_told_which_setting(mutation_name, stage, told):
    result = run_check(stage, _mutant_definitions(mutation_name))
    assert not result.passed
    assert told in result.message, result.message
    assert "1024" not in result.message
    assert "expected 12" not in result.message


# Issue 40: the check's own line says what it found, as the grader's "Likely mistake" does.
LIKELY = {"en": "Likely mistake: ", "zh": "可能的错误：", "pt": "Erro provável: "}


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_named_mistake_is_said_on_the_check_line_in_its_language_without_its_fix(language, capsys):
    """A max without keepdim: the printed line names it in one sentence of the student's language;
    the fix (the mistake's text after its first colon) stays behind hint()."""
    result = run_check("softmax_stable", {"softmax_stable": _stable_without_keepdim}, language)
    assert result.mistake == "softmax_missing_keepdim"
    with catalog.speaking(language):
        said = catalog.found_text("softmax_missing_keepdim")
        fix = catalog.hint_text("softmax_missing_keepdim")[len(said) - 1:]
    assert f"{LIKELY[language]}{said}" in result.message, result.message
    assert fix.strip(" :：") not in result.message
    assert "\n" not in result.message
    check("softmax_stable", {"softmax_stable": _stable_without_keepdim}, language)
    assert said in capsys.readouterr().out


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_named_mistake_has_a_sentence_in_words_for_the_check_line(language):
    with catalog.speaking(language):
        for mistake in MISTAKES:
            said = catalog.found_text(mistake)
            assert said, mistake
            assert not catalog.holds_code(said), (mistake, said)


def test_a_nan_at_token_0_is_no_future_leak():
    """A mask that hides each token from itself leaves token 0 nothing to attend to: its output is
    NaN, and NaN != NaN must not read as an output that later tokens changed."""
    wrong = _causal_attention("future = torch.triu(torch.ones(context_length, context_length, dtype=torch.bool),"
                              " diagonal=1)", "future = torch.triu(torch.ones(context_length, context_length,"
                              " dtype=torch.bool), diagonal=0)")
    result = run_check("CausalAttention", {"CausalAttention": wrong})
    assert not result.passed
    assert result.mistake != "future_leak"
    assert catalog.text("is.changed") not in result.message, result.message
    assert "nan" in result.message, result.message


def test_a_flattened_batch_is_told_as_sequences_mixed_not_as_a_leak():
    """Attention over the batch's sequences laid end to end: a later sequence sees the earlier
    one, which the future-leak probe would read as a leak; the batch probe says what it is."""
    wrong = _module_edited(
        "03_causal_attention", "CausalAttention",
        ("num_tokens = x.shape[1]", "b, num_tokens, d = x.shape\n        x = x.reshape(1, b * num_tokens, d)\n"
                                    "        num_tokens = x.shape[1]"),
        ("future = self.mask[:num_tokens, :num_tokens]",
         "future = torch.ones(num_tokens, num_tokens, dtype=torch.bool).triu(diagonal=1)"),
        ("return attn_weights @ values", "return (attn_weights @ values).reshape(b, -1, self.d_out)"))
    result = run_check("CausalAttention", {"CausalAttention": wrong})
    assert result.mistake == "batch_carried_over", result.message
    assert catalog.text("what.batch_later") in result.message
    assert catalog.found_text("batch_carried_over") in result.message


def test_what_a_students_code_raised_is_told_with_the_line_it_came_from():
    notebook = with_replacement(load_solution("01_attention_scores"), "softmax_stable",
                                "return exp_x / exp_x.sum(dim=dim, keepdim=True)",
                                "return exp_x / exp_x.sum(dim=dim, keepdim=True)[0][0][0][7]")
    namespace, _ = worker_load_definitions([vars(block) for block in extract_definitions(notebook).blocks])
    result = run_check("softmax_stable", namespace)
    assert "raised IndexError" in result.message
    assert "(in your line `return exp_x / exp_x.sum(dim=dim, keepdim=True)[0][0][0][7]`)" in result.message


def test_where_it_differs_names_the_sequence_of_a_batch_that_differs():
    expected = torch.arange(24, dtype=torch.float64).reshape(2, 3, 4)
    actual = expected.clone()
    actual[1] += torch.linspace(1, 2, 12).reshape(3, 4).double()  # sequence 1 wrong in every row
    assert differences.where_it_differs(actual, expected) == catalog.text("diff.some_slices", indices="(1)", dim=0)


def test_a_copy_that_leaves_a_matrix_as_it_was_names_it():
    def copy_v2_weights_into_v1(sa_v2, sa_v1):
        with torch.no_grad():
            for name in ("W_query", "W_key"):
                getattr(sa_v1, name).copy_(getattr(sa_v2, name).weight.T)

    result = run_check("copy_v2_weights_into_v1", {"copy_v2_weights_into_v1": copy_v2_weights_into_v1})
    assert result.mistake == "matrix_not_copied"
    assert catalog.found_text("matrix_not_copied") in result.message


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("answer", "actual", "expected"), [
    (lambda inputs: inputs.double() @ inputs.double().T, torch.float64, torch.float32),  # float32 in, float64 out
    (lambda inputs: (inputs @ inputs.T).float(), torch.float32, torch.float64),  # float64 in, float32 out
])
def test_a_result_in_another_dtype_passes_with_the_graders_note(language, answer, actual, expected):
    """Right values in another dtype than the inputs' cost nothing, and the grader notes them
    (hidden/worth_fixing.py): the check passes and says the grader's own words, in every language."""
    result = run_check("attention_scores", {"attention_scores": answer}, language)
    graders = render(finding("note.worth_fixing", call="attention_scores(inputs)", problems=[
        finding("worth_fixing.dtype", actual=actual, expected=expected, argument="inputs")]), language)
    assert result.passed, result.message
    assert graders.rstrip(".。") in result.message


def test_self_attention_v2_with_its_layers_created_in_another_order_passes_with_a_note_worth_fixing():
    """Created W_key first, a right forward gives other numbers under the seed: the grader gives
    the module its weights by name and charges nothing, so the check puts the book's numbers in,
    passes, and tells the order in a note; a mistake in forward is named as itself."""
    swapped = ("self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)\n        self.W_key = nn.Linear(d_in, d_out,"
               " bias=qkv_bias)", "self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)\n        self.W_query ="
               " nn.Linear(d_in, d_out, bias=qkv_bias)")
    right_forward = _module_edited("02_self_attention", "SelfAttention_v2", swapped)
    result = run_check("SelfAttention_v2", {"SelfAttention_v2": right_forward})
    assert result.passed, result.message
    assert "Not graded, but worth fixing: " in result.message
    assert "in the order W_key, W_query, W_value" in result.message
    wrong_dim = _module_edited("02_self_attention", "SelfAttention_v2", swapped, ("dim=-1", "dim=-2"))
    assert run_check("SelfAttention_v2", {"SelfAttention_v2": wrong_dim}).mistake == "softmax_wrong_dim"


V1_QUERY = "        self.W_query = nn.Parameter(torch.rand(d_in, d_out))\n"
V1_END = "        ### END SOLUTION\n\n    def forward"
MHA_OUT_PROJ = "        self.out_proj = nn.Linear(d_out, d_out)  # mixes the heads' outputs\n"
MHA_QUERY = "        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)\n"


@pytest.mark.parametrize(("stage", "assignment", "edits", "order"), [
    ("SelfAttention_v1", "02_self_attention", [(V1_QUERY, ""), (V1_END, V1_QUERY + V1_END)], "W_key, W_value, W_query"),
    ("MultiHeadAttention", "04_multi_head_attention", [(MHA_OUT_PROJ, ""), (MHA_QUERY, MHA_OUT_PROJ + MHA_QUERY)],
     "out_proj, W_query, W_key, W_value"),
])
def test_parameters_created_in_another_order_pass_with_a_note_worth_fixing(stage, assignment, edits, order):
    """A module whose parameters are created in another order than the notebook's (W_query,
    W_key, W_value, then out_proj) computes the same, and the grader passes it with a note: so
    does its check, whatever the order."""
    namespace = {stage: _module_edited(assignment, stage, *edits),
                 **(_split_and_merge() if stage == "MultiHeadAttention" else {})}
    result = run_check(stage, namespace)
    assert result.passed, result.message
    assert "Not graded, but worth fixing: " in result.message
    assert f"creates its parameters in the order {order}" in result.message


def test_chinese_findings_leave_no_space_between_characters_where_words_fill_a_template():
    """A field in words ("全为 1 的值", "改动过的值") fills a zh template that sets its fields apart
    with spaces for code and numbers: the message reads as one sentence, with no space left between
    two Chinese characters (spaces beside code and numbers stay)."""
    from autograder.student.selfcheck import catalog

    between_han = re.compile(r"[\u4e00-\u9fff，。：（）]\s+[\u4e00-\u9fff，。：（）]")
    with catalog.speaking("zh"):
        messages = catalog.texts("zh")
        phrases = [catalog.text(key, value=2, values="[0.5, 0.5]", sums="1", count=2, kind="list", a="d_out",
                                b="num_heads", index="(0, 1)", heads=2, d_out=2)
                   for key in messages if key.startswith("is.")]
        templates = [key for key, template in messages.items() if "{expected}" in template or "{got}" in template]
        assert phrases
        assert templates
        fields = {"what": "x 的和", "name": "W_query", "where": "第 0 行", "call": "f(x)"}
        for key in templates:
            for phrase in phrases:
                said = catalog.text(key, **fields, expected=phrase, got=phrase)
                assert not between_han.search(said), said
        input_after = catalog.text("values", what="调用之后 f(x) 的输入", expected=catalog.text("is.unchanged"),
                                   got=catalog.text("is.changed"))
        assert input_after == "调用之后 f(x) 的输入：期望原来的值，实际得到改动过的值。"
        all_ones = catalog.text("values", what="w", expected=catalog.text("is.all", value=1), got="[0.5]")
        assert all_ones == "w：期望全为 1 的值，实际得到 [0.5]。"


CPU_MATRIX = '''
def causal_average_matmul(x):
    weights = torch.tril(torch.ones(x.shape[1], x.shape[1], dtype=x.dtype))  # made on the CPU
    return (weights / weights.sum(dim=-1, keepdim=True)) @ x
'''


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_tensor_left_on_the_cpu_is_told_in_the_students_terms(language):
    """The check says that torch refused to mix devices, and why, never how it stands a GPU in
    (fake tensors, the meta device): student text says what to fix, not how the check works."""
    namespace = {"torch": torch}
    exec(CPU_MATRIX, namespace)  # the answer under test
    result = run_check("causal_average_matmul", namespace, language)
    assert not result.passed
    assert result.mistake == "device_not_followed"
    assert "GPU" in result.message
    assert not re.search(r"fake|meta|FakeTensor|假|falso", result.message, re.IGNORECASE), result.message


def test_a_wrapper_with_four_output_features_is_told_by_its_shape(solution_definitions):
    """Exercise 3.2: the check says, in features per token and shapes, what the output should be
    and what the student's wrapper gives, not a bare "expected 1, got 2"."""
    namespace = dict(solution_definitions["04_multi_head_attention"])
    exec(textwrap.dedent('''
        def wrapper_with_2d_output(d_in, context_length, dropout):
            return MultiHeadAttentionWrapper(d_in, 2, context_length, dropout, num_heads=2)
    '''), namespace)  # the answer under test
    message = run_check("wrapper_with_2d_output", namespace, "en").message
    assert "expected 2 features per token, shape (b, T, 2)" in message
    assert "got 4 features per token (2 heads of d_out=2, side by side), shape (b, T, 4)" in message


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_stage_calling_the_students_failing_stage_says_to_fix_that_one_first(language):
    """A simple_self_attention that calls the student's softmax_naive, which sums along the wrong
    dim, fails its check (the check runs the student's own code), and the line says that the called
    stage fails its own check and that the grader grades this one with correct code in its place
    (``CONSULTED``), as the grader's note says."""
    notebook = with_replacement(load_solution("01_attention_scores"), "softmax_naive",
                                "exp_x.sum(dim=dim, keepdim=True)", "exp_x.sum(dim=0, keepdim=True)")
    notebook = with_replacement(notebook, "simple_self_attention", "torch.softmax(attn_scores, dim=-1)",
                                "softmax_naive(attn_scores)")
    namespace, problems = worker_load_definitions([vars(block) for block in extract_definitions(notebook).blocks])
    assert not problems
    result = run_check("simple_self_attention", namespace, language)
    assert not result.passed
    with catalog.speaking(language):
        said = catalog.text("calls_failing_stage", stage="simple_self_attention", stages="softmax_naive")
    assert said in result.message, result.message
    # Its own line names no mistake: the one its values show is the called stage's (a reviewer was
    # told "the softmax normalised over the wrong dimension", and the grader gave it full marks).
    assert result.mistake is None
    assert LIKELY[language] not in result.message
    # The stage it calls is told its own mistake; a right one leaves the line as it was.
    assert not run_check("softmax_naive", namespace, language).passed
    right, _ = worker_load_definitions([vars(block) for block in extract_definitions(with_replacement(
        load_solution("01_attention_scores"), "simple_self_attention", "torch.softmax(attn_scores, dim=-1)",
        "softmax_naive(attn_scores)")).blocks])
    assert run_check("simple_self_attention", right, language).passed


def test_the_check_notes_the_forms_notebook_3_asks_for_as_the_grader_does(solution_definitions):
    """A masked softmax normalised twice, a module without a buffer: each passes, with the grader's
    note in the check's words; the solution gets none. A running mean without a softmax fails, as
    the grader charges it."""
    namespace = dict(solution_definitions["03_causal_attention"])
    exec(compile((Path(__file__).parent / "alternative_answers" / "03_forms_told_in_notes.py").read_text(),
                 "<cell>", "exec"), namespace)
    in_forward = dict(solution_definitions["03_causal_attention"])
    exec(compile((Path(__file__).parent / "alternative_answers" / "03_mask_in_forward.py").read_text(),
                 "<cell>", "exec"), in_forward)
    with catalog.speaking("en"):
        said = {key: catalog.text(f"note.{key}", what="").strip()
                for key in ("renormalised", "no_buffer", "no_matrix_product")}
    results = {"renormalised": run_check("masked_softmax", namespace, "en"),
               "no_buffer": run_check("CausalAttention", in_forward, "en"),
               "no_matrix_product": run_check("causal_average_matmul", namespace, "en")}
    for key, result in results.items():
        assert result.passed, result.message
        assert said[key] in result.message, (key, result.message)
    for stage in ("causal_average_matmul", "causal_average_softmax", "masked_softmax", "CausalAttention"):
        message = run_check(stage, solution_definitions["03_causal_attention"], "en").message
        assert not [text for text in said.values() if text in message], message
    without = dict(solution_definitions["03_causal_attention"])
    exec(compile("def causal_average_softmax(x):\n    return causal_average_matmul(x)\n", "<cell>", "exec"), without)
    result = run_check("causal_average_softmax", without, "en")
    assert not result.passed
    assert result.mistake == "running_mean_without_softmax", result.message


def test_the_check_notes_a_multi_head_attention_without_a_mask_buffer(solution_definitions):
    """Notebook 4's contract registers the mask as a buffer, as notebook 3's does: nanoGPT's flash
    path (no mask at all) passes, with the note the grader gives; the solution gets none."""
    namespace = dict(solution_definitions["04_multi_head_attention"])
    exec(compile((Path(__file__).parent / "alternative_answers" / "04_flash_attention.py").read_text(),
                 "<cell>", "exec"), namespace)
    with catalog.speaking("en"):
        said = catalog.text("note.no_buffer", what="").strip()
    result = run_check("MultiHeadAttention", namespace, "en")
    assert result.passed, result.message
    assert said in result.message
    assert said not in run_check("MultiHeadAttention", solution_definitions["04_multi_head_attention"], "en").message


@pytest.mark.parametrize(("assignment", "stage"), [("03_causal_attention", "CausalAttention"),
                                                   ("04_multi_head_attention", "MultiHeadAttention")])
def test_a_mask_kept_as_a_plain_attribute_is_told_where_moving_the_module_leaves_it_behind(
        solution_definitions, assignment, stage):
    """blind15/110: the check named a plain-attribute mask first, where the grader named the
    module's own faults and said nothing of the mask (its stand-in GPU run failed on them first).
    The check now tells the mask as the grader does: when the module, moved to a GPU, leaves it
    behind; a module that moves it itself (.to(x.device)) runs, and passes."""
    registered = 'self.register_buffer("mask", future)'
    plain = with_replacement(load_solution(assignment), stage, registered, "self.mask = future")
    namespace = dict(solution_definitions[assignment])
    exec(cell_source(answer_cell(plain, stage)), namespace)
    result = run_check(stage, namespace)
    assert not result.passed
    assert result.mistake == "mask_plain_attribute", result.message
    moved = with_replacement(plain, stage, "future = self.mask[:num_tokens, :num_tokens]",
                             "future = self.mask[:num_tokens, :num_tokens].to(x.device)")
    namespace = dict(solution_definitions[assignment])
    exec(cell_source(answer_cell(moved, stage)), namespace)
    assert run_check(stage, namespace).passed


def test_weights_that_give_every_later_token_one_weight_read_as_scores_filled_with_one_number():
    """blind16's 095 filled the hidden scores with 0: the check said only "sees the future", where
    the grader names the fill. Scores set to one number give every later token of a row one weight."""
    from autograder.student.selfcheck.expectations import leak_reading

    scores = torch.randn(2, 5, 5, generator=torch.Generator().manual_seed(3), dtype=torch.float64)
    future = torch.ones(5, 5, dtype=torch.bool).triu(1)
    assert leak_reading(torch.softmax(scores.masked_fill(future, 0.0), dim=-1)) == "mask_filled_with_zero"
    assert leak_reading(torch.softmax(scores, dim=-1)) == "future_leak"  # no mask: a weight of its own each
    assert leak_reading(torch.softmax(scores.masked_fill(future, float("-inf")), dim=-1)) == \
        "tokens_mixed_outside_weights"


def test_a_stage_calling_one_not_defined_yet_is_told_to_run_that_cell():
    """masked_softmax calls causal_mask, whose ✏️ cell has not run (a reviewer's raw NameError)."""
    def masked_softmax(attn_scores, d_k):
        return torch.softmax(attn_scores.masked_fill(causal_mask(attn_scores.shape[-1]), -torch.inf)  # noqa: F821
                             / d_k ** 0.5, dim=-1)

    result = run_check("masked_softmax", {"masked_softmax": masked_softmax})
    assert not result.passed
    assert not result.found
    assert result.message == "❌ masked_softmax: " + catalog.text("calls_undefined_stage", stage="masked_softmax",
                                                                   called="causal_mask")


def test_wrong_values_from_an_input_changed_in_place_say_that_change_too():
    """A reviewer's loop wrote into x (out = x): the check listed only the rows that differ, where
    the grader names the in-place change beside the values. Its values are those of means written
    back into x (the catalogue's), so the check names that one mistake, as the grader does."""
    result = run_check("causal_average_loop", {"causal_average_loop": _loop_writing_into_its_input})
    assert not result.passed
    assert result.mistake == "input_modified_in_place"
    assert result.message.endswith(catalog.found_text("input_modified_in_place"))
    assert result.hint == catalog.texts("en")["input_modified_in_place"]


def test_a_module_that_answers_otherwise_on_each_call_is_told_so():
    """blind26/044: F.dropout(weights, p=0.1) in SelfAttention_v2 (no dropout of its own; F.dropout's
    training is True unless given) was a bare difference from the book; the check calls it twice."""
    weights = "attn_weights = torch.softmax(attn_scores / keys.shape[-1] ** 0.5, dim=-1)  # (T, T)"
    dropout = "\n        attn_weights = torch.nn.functional.dropout(attn_weights, 0.1)"
    dropped = _module_edited("02_self_attention", "SelfAttention_v2", (weights, weights + dropout))
    result = run_check("SelfAttention_v2", {"SelfAttention_v2": dropped})
    assert not result.passed
    assert "called twice on the same input, returned other values the second time" in result.message
    assert run_check("SelfAttention_v2", {"SelfAttention_v2": _module_edited("02_self_attention",
                                                                             "SelfAttention_v2")}).passed


def test_the_notebooks_defaults_are_the_references():
    """The check's table of the notebook's defaults is the reference's signatures, stage by stage."""
    from autograder.course.reference import load_reference
    from autograder.student.curriculum import ASSIGNMENTS, NOTEBOOK_DEFAULTS, STAGES_BY_ASSIGNMENT

    found = {}
    for assignment in ASSIGNMENTS:
        reference = load_reference(assignment)
        for stage in STAGES_BY_ASSIGNMENT[assignment]:
            defaults = {parameter.name: parameter.default
                        for parameter in inspect.signature(getattr(reference, stage)).parameters.values()
                        if parameter.default is not inspect.Parameter.empty}
            if defaults:
                found[stage] = defaults
    assert found == NOTEBOOK_DEFAULTS


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_default_written_otherwise_is_named_as_the_grader_names_it(language):
    """blind29/073: training=False by default, so the check's call drops nothing and its values read
    as "not rescaled"; the check names the default instead, as the grader does."""
    def inverted_dropout(x, p, training=False, generator=None):
        if not 0 <= p <= 1:
            raise ValueError(f"p={p} is not a probability")
        if not training:
            return x
        keep = (torch.rand(x.shape, generator=generator, device=x.device) >= p).to(x.dtype)
        return x * keep / (1 - p)

    result = run_check("inverted_dropout", {"inverted_dropout": inverted_dropout}, language)
    assert not result.passed
    assert result.mistake == "default_changed"
    with catalog.speaking(language):
        assert catalog.text("default_written", parameter="training", written="False", given="True") in result.message


def test_the_check_names_one_head_listed_num_heads_times(solution_definitions):
    """[head] * num_heads: the check named nothing and read the output as columns in another order
    (notebook 4's review); it names the shared head, as the grader does."""
    namespace = dict(solution_definitions["04_multi_head_attention"])
    exec(compile("class MultiHeadAttentionWrapper(nn.Module):\n"
                 "    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):\n"
                 "        super().__init__()\n"
                 "        head = CausalAttention(d_in, d_out, context_length, dropout, qkv_bias)\n"
                 "        self.heads = nn.ModuleList([head] * num_heads)\n\n"
                 "    def forward(self, x):\n"
                 "        return torch.cat([head(x) for head in self.heads], dim=-1)\n", "<cell>", "exec"), namespace)
    result = run_check("MultiHeadAttentionWrapper", namespace, "en")
    assert not result.passed
    assert result.mistake == "shared_head"
    assert "one CausalAttention module, listed 2 times" in result.message
