"""otter-grader: the generated test files are up to date, and otter's own `check` and `export`
run them on a student notebook's definitions."""

from __future__ import annotations

import shutil
import zipfile

import otter
import pytest
from kit_notebooks import load_definitions
from platform_class import ASSIGNMENT, write_class

from autograder.paths import ASSIGNMENTS_DIR, solution_notebook, student_notebook
from autograder.platforms.otter_tests import TESTS_FOLDER, expected_files, write_test_files
from autograder.student.curriculum import ASSIGNMENTS, STAGES_BY_ASSIGNMENT
from autograder.student.selfcheck import run_check


def test_committed_otter_tests_are_regenerated_byte_for_byte():
    expected = expected_files()
    committed = sorted(ASSIGNMENTS_DIR.glob(f"**/{TESTS_FOLDER}/*.py"))
    assert committed == sorted(expected), "the otter test files are stale: run `make otter-tests`"
    for path, text in expected.items():
        assert path.read_text(encoding="utf-8") == text, f"{path} is stale: run `make otter-tests`"


def test_writing_removes_test_files_of_stages_that_no_longer_exist(tmp_path):
    stale = tmp_path / "01_attention_scores" / TESTS_FOLDER / "old_stage.py"
    stale.parent.mkdir(parents=True)
    stale.write_text("")
    written = write_test_files(tmp_path)
    assert not stale.exists()
    assert sorted(written) == sorted(expected_files(tmp_path))


@pytest.fixture
def notebook_folder(tmp_path, monkeypatch):
    """A student's working folder: the class's notebooks and the released tests/, as the cwd."""
    write_class(tmp_path / "class")
    folder = tmp_path / "student"
    shutil.copytree(student_notebook(ASSIGNMENT).parent, folder)
    monkeypatch.chdir(folder)  # otter writes its log (.OTTER_LOG) and the export zip here
    return folder


def _notebook_of(folder, student: str):
    notebook = folder.parent / "class" / student / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
    shutil.copyfile(notebook, folder / notebook.name)
    return folder / notebook.name


@pytest.mark.slow
def test_grader_check_in_the_notebook_globals_gives_the_public_check(notebook_folder):
    namespace, problems = load_definitions(_notebook_of(notebook_folder, "ben"))
    assert problems == []
    # What a notebook cell runs: otter finds the globals of the calling frame itself.
    exec("import otter\ngrader = otter.Notebook()\n"
         "failing = grader.check('softmax_naive')\npassing = grader.check('attention_scores')\n", namespace)
    failing, passing = namespace["failing"], namespace["passing"]
    assert failing.grade == 0
    assert run_check("softmax_naive", namespace, language="en").message in repr(failing)
    assert passing.grade == 1
    assert "All test cases passed" in repr(passing)


@pytest.mark.slow
def test_grader_check_on_stubs_says_not_implemented(notebook_folder):
    namespace, _ = load_definitions(notebook_folder / f"{ASSIGNMENT}.ipynb")
    result = otter.Notebook().check("context_vector", global_env=namespace)
    assert result.grade == 0
    assert "not implemented yet" in repr(result)


@pytest.mark.slow
def test_grader_export_writes_a_submission_zip_with_the_notebook(notebook_folder):
    notebook = _notebook_of(notebook_folder, "ada")
    otter.Notebook().export(nb_path=notebook.name, pdf=False, display_link=False)
    [archive] = notebook_folder.glob(f"{ASSIGNMENT}_*.zip")  # otter stamps the time in the name
    with zipfile.ZipFile(archive) as exported:
        assert exported.read(notebook.name) == notebook.read_bytes()


@pytest.mark.slow
@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_every_stage_passes_otter_on_the_solution(tmp_path, monkeypatch, assignment_id):
    monkeypatch.chdir(tmp_path)
    namespace, _ = load_definitions(solution_notebook(assignment_id))
    grader = otter.Notebook(tests_dir=str(student_notebook(assignment_id).parent / TESTS_FOLDER))
    for stage in STAGES_BY_ASSIGNMENT[assignment_id]:
        result = grader.check(stage, global_env=namespace)
        assert result.grade == 1, repr(result)
