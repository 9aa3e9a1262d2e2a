"""Charges for hints (issue 41): a price per hint tier, per stage or for every stage, set in the
rubric (``[hint_charges]``) or the service's policy; taken after the stage's score, never more than
the stage earned, never from a row the grader could not grade; shown on the feedback page in the
notebook's language. None by default, and then nothing changes. The service's side is in
tests/test_service_hint_charges.py."""

from __future__ import annotations

import csv
import dataclasses
import json
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from autograder.course import rubric
from autograder.feedback.page import feedback_html, page_text
from autograder.notebooks.variants import (
    answer_cell,
    load_solution,
    load_student,
    with_answer,
    write_submission,
)
from autograder.paths import KIT_ROOT
from autograder.reading.notebook import cell_source
from autograder.records.hint_charges import HintPriceError, HintPrices, hint_charges
from autograder.records.results import GradedRow, HintCharge, HintUse, RowKind, RowStatus, ScoredTest, TestStatus
from autograder.student.curriculum import STAGES_BY_ASSIGNMENT
from autograder.student.language import LANGUAGES

ASSIGNMENT = "01_attention_scores"
STAGES = STAGES_BY_ASSIGNMENT[ASSIGNMENT]


def _row(points: dict[str, float], hints: dict[str, int], kind: RowKind = RowKind.GRADED,
         language: str = "en") -> GradedRow:
    """A row whose stages earned ``points`` of 10 each, one test per stage, with ``hints`` opened."""
    tests = tuple(ScoredTest(f"test_{stage}", stage, earned, 10.0,
                             TestStatus.PASSED if earned == 10 else TestStatus.FAILED)
                  for stage, earned in points.items())
    return GradedRow("ada", ASSIGNMENT, RowStatus(kind), sum(points.values()), 100.0, tests, language=language,
                     hints=tuple(HintUse(stage, tier) for stage, tier in hints.items()))


# -- prices ---------------------------------------------------------------------------------------
def test_the_committed_rubric_charges_for_no_hint():
    prices = rubric.hint_prices()
    assert all(prices.price(stage, tier) == 0 for stages in STAGES_BY_ASSIGNMENT.values() for stage in stages
               for tier in (1, 2, 3))
    assert prices.of_stages(STAGES) == {}


def test_a_stages_own_row_replaces_every_stage_and_the_highest_tier_opened_is_what_counts():
    prices = HintPrices.from_table({"every_stage": [0, 0.5, 1], "softmax_stable": [1, 2, 3]}, STAGES)
    assert [prices.price("context_vector", tier) for tier in (1, 2, 3)] == [0, 0.5, 1]
    assert [prices.price("softmax_stable", tier) for tier in (1, 2, 3)] == [1, 2, 3]
    row = _row({"context_vector": 10, "softmax_stable": 10, "softmax_naive": 10},
               {"context_vector": 3, "softmax_stable": 2, "softmax_naive": 1})
    assert hint_charges(row, prices) == (HintCharge("context_vector", 3, 1.0, 1.0),
                                         HintCharge("softmax_stable", 2, 2.0, 2.0))  # tier 1 costs 0: no charge
    assert prices.of_stages(["context_vector", "softmax_naive"]) == {"context_vector": (0, 0.5, 1),
                                                                     "softmax_naive": (0, 0.5, 1)}
    assert HintPrices.from_table(prices.table(), STAGES) == prices


@pytest.mark.parametrize(("table", "key"), [
    ([0, 1, 2], "not_a_table"),
    ({"split_heads": [0, 1, 2]}, "unknown_stage"),  # a stage of another notebook
    ({"every_stage": [0, 1]}, "not_three"),
    ({"softmax_naive": 1}, "not_three"),
    ({"every_stage": [0, "1", 2]}, "not_a_number"),
    ({"every_stage": [0, True, 2]}, "not_a_number"),
    ({"every_stage": [0, float("nan"), 2]}, "not_a_number"),
    ({"every_stage": [0, -1, 2]}, "negative"),
    ({"every_stage": [0, 2, 1]}, "decreasing"),
])
def test_a_table_that_cannot_be_used_is_refused_saying_why(table, key):
    with pytest.raises(HintPriceError) as refused:
        HintPrices.from_table(table, STAGES)
    assert refused.value.key == key
    assert "{" not in str(refused.value)


def test_a_rubric_with_hint_charges_is_read_and_one_that_cannot_be_used_stops_grading(tmp_path, monkeypatch):
    table = KIT_ROOT / "autograder" / "course" / "rubric.toml"

    def read(extra: str) -> HintPrices:
        copy = tmp_path / "rubric.toml"
        copy.write_text(table.read_text() + extra)
        monkeypatch.setattr(rubric, "RUBRIC_FILE", copy)
        rubric._table.cache_clear()
        rubric.hint_prices.cache_clear()
        return rubric.hint_prices()

    try:
        assert read("every_stage = [0, 0.5, 1]\nsplit_heads = [0, 1, 2]\n").price("split_heads", 2) == 1
        with pytest.raises(rubric.RubricError, match=r"\[hint_charges\]: split_head is no stage here"):
            read("split_head = [0, 1, 2]\n")
    finally:
        monkeypatch.undo()
        rubric._table.cache_clear()
        rubric.hint_prices.cache_clear()


# -- what a row is charged ------------------------------------------------------------------------
def test_a_charge_never_takes_more_than_the_stage_earned():
    prices = HintPrices.from_table({"every_stage": [1, 2, 3]}, STAGES)
    row = _row({"softmax_naive": 1.5, "softmax_stable": 0.0, "context_vector": 10},
               {"softmax_naive": 3, "softmax_stable": 3, "context_vector": 1})
    assert hint_charges(row, prices) == (HintCharge("softmax_naive", 3, 1.5, 3.0),
                                         HintCharge("context_vector", 1, 1.0, 1.0))
    charged = hint_charges(row, prices)
    assert [charge.capped for charge in charged] == [True, False]


def test_a_row_the_grader_could_not_grade_is_charged_nothing():
    prices = HintPrices.from_table({"every_stage": [1, 2, 3]}, STAGES)
    for kind in (RowKind.ERROR, RowKind.MISSING, RowKind.UNREADABLE):
        assert hint_charges(_row({"softmax_naive": 10}, {"softmax_naive": 3}, kind), prices) == ()


def test_the_charges_are_kept_in_the_results_and_read_back():
    row = _row({"softmax_naive": 10}, {"softmax_naive": 2})
    row = dataclasses.replace(row, hint_charges=(HintCharge("softmax_naive", 2, 0.5, 0.5),))
    data = row.to_json()
    assert data["hint_charges"] == [{"stage": "softmax_naive", "tier": 2, "points": 0.5, "price": 0.5}]
    assert data["hint_charge"] == 0.5
    back = GradedRow.from_json(data)
    assert back.hint_charges == row.hint_charges
    assert back.before_term == 9.5


# -- the feedback page ----------------------------------------------------------------------------
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_feedback_page_says_what_each_hint_cost_in_the_notebooks_language(language):
    prices = HintPrices.from_table({"every_stage": [0, 0.5, 1], "softmax_naive": [2, 4, 6]}, STAGES)
    row = _row({"softmax_naive": 3, "context_vector": 10}, {"softmax_naive": 3, "context_vector": 2},
               language=language)
    charged = dataclasses.replace(row, hint_charges=hint_charges(row, prices))
    charged = dataclasses.replace(charged, score=charged.before_term)
    page = feedback_html(charged)
    text = page_text(language)
    capped = text["score.hint_charge_capped"].format(tier=3, stage="softmax_naive", price="6")
    plain = text["score.hint_charge"].format(tier=2, stage="context_vector")
    assert f"<td>{capped}</td><td class=\"points\">\u22123</td>" in page
    assert f"<td>{plain}</td><td class=\"points\">\u22120.5</td>" in page
    assert f"{charged.score:g} / 100" == "9.5 / 100"
    assert f"<td>{text['score.total']}</td><td class=\"points\">9.5 / 100</td>" in page


def test_without_a_charge_the_page_shows_no_breakdown():
    page = feedback_html(_row({"softmax_naive": 10}, {"softmax_naive": 3}))
    assert 'class="breakdown"' not in page


# -- `grade`, end to end, with a kit whose rubric charges for hints --------------------------------
def _hint_cell(stage: str, tier: int) -> dict:
    """A cell as the student package leaves it after ``hint(stage, tier)``: the call and its output."""
    cell = nbformat.v4.new_code_cell(f'hint("{stage}", {tier})')
    cell.outputs = [nbformat.v4.new_output("display_data", data={"text/plain": "💡"},
                                           metadata={"attention_kit": {"hint": {"stage": stage, "tier": tier}}})]
    return cell


def _with_hints(notebook: dict, *opened: tuple[str, int]) -> dict:
    changed = json.loads(json.dumps(notebook))
    changed["cells"] += [_hint_cell(stage, tier) for stage, tier in opened]
    return changed


def _kit_charging(root: Path, extra: str) -> Path:
    """A copy of the kit whose rubric ends with ``extra`` (its last table is [hint_charges])."""
    kit = root / "kit"
    for part in ("autograder", "solutions", "pyproject.toml"):
        source, target = KIT_ROOT / part, kit / part
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(source, target)
    rubric_file = kit / "autograder" / "course" / "rubric.toml"
    assert rubric_file.read_text().rstrip().endswith("[hint_charges]")
    rubric_file.write_text(rubric_file.read_text() + extra)
    return kit


def _grade(kit: Path, submitted: Path, out: Path) -> dict[str, dict]:
    command = [sys.executable, "-m", "autograder", "grade", str(submitted), "--out", str(out), "--jobs", "2"]
    result = subprocess.run(command, cwd=kit, capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stdout + result.stderr
    with (out / "grades.csv").open(newline="") as handle:
        return {row["student_id"]: row for row in csv.DictReader(handle)}


@pytest.mark.slow
def test_grade_charges_what_the_rubric_sets_and_nothing_without_it(tmp_path):
    """The same class graded by a kit whose rubric charges for hints and by the kit as committed
    (no charge): ada, right everywhere, opened tier 2 of softmax_stable (its own price, 2) and tier
    3 of context_vector (every stage's, 1), and tier 1 of attention_scores (free); ben left
    softmax_naive a stub, which earned nothing, and opened its tier 3: he pays nothing for it."""
    submitted = tmp_path / "in"
    write_submission(submitted, "ada", ASSIGNMENT, _with_hints(load_solution(ASSIGNMENT), ("softmax_stable", 2),
                                                              ("context_vector", 3), ("attention_scores", 1)))
    stub = with_answer(load_solution(ASSIGNMENT), "softmax_naive", cell_source(answer_cell(
        load_student(ASSIGNMENT), "softmax_naive")))
    write_submission(submitted, "ben", ASSIGNMENT, _with_hints(stub, ("softmax_naive", 3)))
    kit = _kit_charging(tmp_path, "every_stage = [0, 0.5, 1]\nsoftmax_stable = [1, 2, 3]\n")

    charged = _grade(kit, submitted, tmp_path / "charged")
    results = json.loads((tmp_path / "charged" / "results" / "ada" / f"{ASSIGNMENT}.json").read_text())
    assert results["hint_charges"] == [{"stage": "softmax_stable", "tier": 2, "points": 2.0, "price": 2.0},
                                       {"stage": "context_vector", "tier": 3, "points": 1.0, "price": 1.0}]
    assert (results["tests_score"], results["score"]) == (100, 97)
    assert charged["ada"]["score"] == "97"
    page = (tmp_path / "charged" / "feedback" / "ada" / f"{ASSIGNMENT}.html").read_text()
    assert "<td>Hint charge (tier 2 opened for softmax_stable)</td><td class=\"points\">\u22122</td>" in page
    assert "<td>Hint charge (tier 3 opened for context_vector)</td><td class=\"points\">\u22121</td>" in page
    assert '<p class="score">97 / 100</p>' in page
    ben = json.loads((tmp_path / "charged" / "results" / "ben" / f"{ASSIGNMENT}.json").read_text())
    assert ben["hint_tiers"] == {"softmax_naive": 3}
    assert ben["hint_charges"] == []
    assert ben["score"] == ben["tests_score"] < 100

    free = _grade(KIT_ROOT, submitted, tmp_path / "free")
    assert free["ada"]["score"] == "100"
    assert free["ben"]["score"] == charged["ben"]["score"]
    page = (tmp_path / "free" / "feedback" / "ada" / f"{ASSIGNMENT}.html").read_text()
    assert "Hint charge" not in page
    assert 'class="breakdown"' not in page



# -- the notebook says a hint's price before the student opens it ---------------------------------
def test_the_student_package_carries_the_rubrics_hint_prices():
    from autograder.notebooks import known_outputs

    assert known_outputs._hint_prices_stale() == [], "run `make assignments`"
    assert json.loads(known_outputs.hint_prices_rendered())["prices"] == {}  # the committed rubric charges nothing


@pytest.fixture
def priced(tmp_path, monkeypatch):
    """The student package with a prices file as `make assignments` writes it from a rubric that
    charges 0, 0.5, 1 for every stage and 1, 2, 3 for softmax_naive."""
    from autograder.notebooks import known_outputs
    from autograder.student import hint_prices

    charging = HintPrices.from_table({"every_stage": [0, 0.5, 1], "softmax_naive": [1, 2, 3]},
                                     [stage for stages in STAGES_BY_ASSIGNMENT.values() for stage in stages])
    monkeypatch.setattr(rubric, "hint_prices", lambda: charging)
    prices_file = tmp_path / "hint_prices.json"
    prices_file.write_text(known_outputs.hint_prices_rendered(), encoding="utf-8")
    monkeypatch.setattr(hint_prices, "PRICES_FILE", prices_file)
    hint_prices._prices.cache_clear()
    yield
    hint_prices._prices.cache_clear()


def _wrong_softmax() -> dict:
    import torch

    def softmax_naive(x, dim=-1):
        return torch.exp(x)  # never divided by the total

    return {"softmax_naive": softmax_naive, "torch": torch}


@pytest.mark.parametrize("language", LANGUAGES)
def test_where_a_hint_is_offered_its_price_is_said_first(priced, capsys, language):
    from autograder.student.selfcheck import catalog
    from autograder.student.selfcheck.runner import check, hint_line

    check("softmax_naive", _wrong_softmax(), language)
    printed = capsys.readouterr().out
    with catalog.speaking(language):
        said = catalog.text("hint_prices", tier1="1", tier2="2", tier3="3")
        assert said in printed
        assert printed.index(catalog.text("hint_offer", stage="softmax_naive")) < printed.index(said)
        for tier, offered in ((1, 2), (2, 3)):  # each tier offers the next, with its price
            shown = hint_line("softmax_naive", _wrong_softmax(), language, tier)
            assert shown.endswith(catalog.text(f"hint_more.{offered}", stage="softmax_naive")
                                  + catalog.text("hint_cost", points=str(offered)))
        free_tier = hint_line("context_vector", {}, language, 1)  # every stage's tier 2 costs 0.5
        assert free_tier.endswith(catalog.text("hint_cost", points="0.5"))


def test_without_a_charge_no_price_is_said(capsys):
    from autograder.student.selfcheck import catalog
    from autograder.student.selfcheck.runner import check, hint_line

    check("softmax_naive", _wrong_softmax(), "en")
    printed = capsys.readouterr().out
    assert "💰" not in printed
    assert hint_line("softmax_naive", _wrong_softmax(), "en", 1).endswith(
        catalog.text("hint_more.2", stage="softmax_naive"))


def test_a_stage_charged_for_its_hints_gets_its_reference_once_closed():
    """A charge costs points on its stage as a failed test does: both are stages the student lost
    points on (the service shows their reference once closed); a hint opened for free costs nothing."""
    row = _row({"softmax_naive": 10, "softmax_stable": 4, "context_vector": 10},
               {"softmax_naive": 2, "context_vector": 1})
    row = dataclasses.replace(row, hint_charges=(HintCharge("softmax_naive", 2, 2.0, 2.0),))
    assert row.stages_that_lost_points() == ["softmax_naive", "softmax_stable"]
