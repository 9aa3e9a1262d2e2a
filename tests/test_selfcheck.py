"""The public self-checks: pass on the solutions, fail politely on stubs and known mistakes."""

from __future__ import annotations

import ast
import re
import warnings
from pathlib import Path

import pytest
import torch
from kit_notebooks import load_definitions

from autograder.course.paths import solution_notebook, student_notebook
from autograder.notebooks.reading import cell_source
from autograder.notebooks.variants import answer_cell, load_solution
from autograder.student import selfcheck
from autograder.student.curriculum import ASSIGNMENTS, STAGES_BY_ASSIGNMENT, all_stages
from autograder.student.example import your_journey_inputs, your_journey_tokens
from autograder.student.mistakes import MISTAKES
from autograder.student.selfcheck import CheckResult, catalog, check, hint, run_check, self_checks
from autograder.student.selfcheck.registry import FIRST_HINTS

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


def test_any_exception_becomes_one_line_with_its_type():
    def softmax_naive(x, dim=-1):
        raise ZeroDivisionError("first line\nsecond line")

    result = run_check("softmax_naive", {"softmax_naive": softmax_naive})
    assert result == CheckResult(False, "❌ softmax_naive: raised ZeroDivisionError: first line",
                                 catalog.texts("en")[FIRST_HINTS["softmax_naive"]])


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


def _keys_dot_t(queries, keys):
    return queries @ keys.T / keys.shape[-1] ** 0.5


def _unscaled_masked_softmax(attn_scores, d_k):
    hidden = torch.ones(attn_scores.shape[-2:], dtype=torch.bool).triu(diagonal=1)
    return torch.softmax(attn_scores.masked_fill(hidden, -torch.inf), dim=-1)


def _masked_without_renormalising(attn_weights):
    return torch.tril(attn_weights)


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


@pytest.mark.parametrize(
    ("stage", "wrong", "expected_hint"),
    [
        ("softmax_naive", _softmax_over_dim_0, "softmax_wrong_dim"),
        ("scaled_dot_product_scores", _unscaled_scores, "no_sqrt_scaling"),
        ("scaled_dot_product_scores", _keys_dot_t, "keys_T_on_batch"),
        ("masked_softmax", _unscaled_masked_softmax, "no_sqrt_scaling"),
        ("mask_and_renormalize", _masked_without_renormalising, "hint.renormalise"),
        ("causal_mask", _tril_mask, "hint.mask_future"),
        ("inverted_dropout", _dropout_without_rescaling, "dropout_not_rescaled"),
        ("split_heads", _split_without_transpose, "view_without_transpose"),
        ("merge_heads", _merge_without_contiguous, "hint.merge_contiguous"),
        ("causal_average_matmul", _unnormalised_prefix_sum, "prefix_sum"),
    ],
)
def test_known_mistakes_get_their_hint_only_when_asked_for(stage, wrong, expected_hint, capsys):
    """The check says what it found; the fix waits for hint("<stage>")."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # keys.T on a batch warns before it fails
        result = run_check(stage, {stage: wrong})
        assert not result.passed
        assert result.message.startswith(f"❌ {stage}: ")
        assert "\n" not in result.message
        assert result.hint == catalog.texts("en")[expected_hint]
        assert result.hint not in result.message
        check(stage, {stage: wrong})
        assert capsys.readouterr().out == f'{result.message}\n   💡 Stuck? hint("{stage}") suggests what to change.\n'
        globals()[stage] = wrong  # hint() looks the stage up in its caller's globals, as in a notebook
        try:
            hint(stage)
        finally:
            del globals()[stage]
    assert capsys.readouterr().out == f"💡 {stage}: {result.hint}\n"


def test_a_hint_before_any_answer_gets_the_student_started_and_none_is_needed_after(
        stub_definitions, solution_definitions, capsys):
    stubbed = run_check("causal_mask", stub_definitions["03_causal_attention"])
    assert stubbed.hint is None  # nothing to diagnose yet: no hint is offered under the check
    hint("causal_mask", stub_definitions["03_causal_attention"])
    assert capsys.readouterr().out == f"💡 causal_mask: {catalog.texts('en')[FIRST_HINTS['causal_mask']]}\n"
    hint("causal_mask", solution_definitions["03_causal_attention"])
    assert capsys.readouterr().out == "✅ causal_mask passes its public check: no hint needed.\n"


def test_every_stage_has_a_first_hint_of_its_own_in_every_language():
    assert set(FIRST_HINTS) == set(all_stages())
    for language in ("en", "zh", "pt"):
        assert all(catalog.texts(language)[key] for key in FIRST_HINTS.values())


def test_self_checks_bind_check_and_hint_in_one_language(capsys):
    bound = self_checks("pt")
    namespace = {"check": bound, "hint": bound.hint}
    exec("def causal_mask(num_tokens, device=None):\n    import torch\n"
         "    return torch.ones(num_tokens, num_tokens).tril().bool()\n", namespace)
    exec("check('causal_mask')\nhint('causal_mask')", namespace)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("❌ causal_mask: ")
    assert lines[1] == '   💡 Travou? hint("causal_mask") sugere o que mudar.'
    assert lines[2].startswith("💡 causal_mask: True marca o futuro oculto")


def _softmax_shifted_by(statistic):
    def softmax_stable(x, dim=-1):
        exp_x = torch.exp(x - statistic(x, dim))
        return exp_x / exp_x.sum(dim=dim, keepdim=True)
    return softmax_stable


@pytest.mark.parametrize("statistic", [
    lambda x, dim: x.mean(dim=dim, keepdim=True),
    lambda x, dim: x.min(dim=dim, keepdim=True).values,
    lambda x, dim: x.max(),
], ids=["mean", "min", "global max"])
def test_softmax_stable_must_subtract_each_rows_maximum(statistic):
    result = run_check("softmax_stable", {"softmax_stable": _softmax_shifted_by(statistic)})
    assert not result.passed
    assert result.hint == catalog.texts("en")["softmax_overflow"]
    right = _softmax_shifted_by(lambda x, dim: x.amax(dim=dim, keepdim=True))
    assert run_check("softmax_stable", {"softmax_stable": right}).passed


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
