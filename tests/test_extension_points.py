"""A fifth notebook and a fourth language, added to a copy of the kit by the contributing page's
recipes, touch only the files the recipes name; everything that lists notebooks or languages
reads them from the registry (``autograder/student/curriculum.py``, ``autograder/student/language.py``):
the notebooks' build, the stage markers in the grader's own pytest session, the service (no
migration), the public self-checks, the fork server's preloaded modules and the student package.

The copy is the kit's tracked files as they are in this working tree, committed in a repository of
its own, so that ``git status`` shows at the end what the recipes changed. Its code runs in
subprocesses with the copy first on ``sys.path`` (the editable installs' finders come after it).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from autograder.notebooks.translation import english_hash
from autograder.paths import KIT_ROOT
from autograder.student.curriculum import ASSIGNMENTS

pytestmark = pytest.mark.slow

NOTEBOOK = "05_extra_attention"
STAGE = "extra_scores"
LANGUAGE = "eo"  # a stand-in language: its catalogs are copies of the Portuguese ones
INTRO = "# Assignment 5 · Extra attention"
STUB_COMMENT = "YOUR CODE HERE"  # nbgrader's comment, the one text of the stage's stub

# What each recipe edits, and what it adds; nothing else may change (the build's output aside).
EDITED = {"autograder/student/curriculum.py", "autograder/course/rubric.toml",  # a notebook
          "autograder/student/language.py", "autograder/student/pyproject.toml"}  # a language
ADDED_FOR_THE_NOTEBOOK = {f"solutions/{NOTEBOOK}/{NOTEBOOK}.ipynb", f"autograder/hidden_tests/test_{NOTEBOOK}.py",
                          "autograder/student/selfcheck/assignment_05.py",
                          *(f"autograder/locales/{language}/{NOTEBOOK}{kind}.json"
                            for language in ("zh", "pt", LANGUAGE) for kind in ("", ".stubs"))}
ADDED_FOR_THE_LANGUAGE = {f"autograder/student/{LANGUAGE}.py"}
LANGUAGE_FOLDERS = (f"autograder/locales/{LANGUAGE}/", f"autograder/student/locales/{LANGUAGE}/")  # its catalogs

HIDDEN_TEST = f'''"""Hidden tests of {NOTEBOOK} (tests/test_extension_points.py's stand-in)."""

import pytest

ASSIGNMENT = "{NOTEBOOK}"


@pytest.mark.{STAGE}
def test_{STAGE}(student, reference):
    assert student.call("{STAGE}", [[1.0]]) == reference.{STAGE}([[1.0]])
'''
SELF_CHECK = f'''"""The public check of {NOTEBOOK} (tests/test_extension_points.py's stand-in)."""

from .registry import check_of


@check_of("{STAGE}")
def _check_{STAGE}(namespace):
    pass
'''


def _replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{path}: {old!r} is gone; update this test's recipe"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _git(kit: Path, *args: str) -> str:
    return subprocess.run(["git", "-c", "user.name=kit", "-c", "user.email=kit@localhost", *args], cwd=kit,
                          check=True, capture_output=True, text=True).stdout


def _copy_of_the_kit(root: Path) -> Path:
    kit = root / "kit"
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=KIT_ROOT, check=True, capture_output=True,
                            text=True).stdout
    for name in filter(None, listed.split("\0")):
        if (KIT_ROOT / name).is_file():  # a file deleted in this working tree stays out
            (kit / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(KIT_ROOT / name, kit / name)
    _git(kit, "init", "--quiet")
    _git(kit, "add", "--all")
    _git(kit, "commit", "--quiet", "--no-verify", "-m", "the kit as it is")
    return kit


def _add_notebook(kit: Path) -> None:
    """The recipe "Adding a notebook", with one stage."""
    _replace(kit / "autograder/student/curriculum.py", '        "gpt2_small_attention",\n    ],\n',
             f'        "gpt2_small_attention",\n    ],\n    "{NOTEBOOK}": ["{STAGE}"],\n')
    master = nbformat.v4.new_notebook(metadata={"kernelspec": {"display_name": "Python 3", "language": "python",
                                                               "name": "python3"}})
    master.cells = [
        nbformat.v4.new_markdown_cell(INTRO, id="intro"),
        nbformat.v4.new_code_cell("", id="self-checks"),  # the build writes it
        nbformat.v4.new_code_cell(
            f"def {STAGE}(inputs):\n    ### BEGIN SOLUTION\n    return inputs\n    ### END SOLUTION",
            id=f"answer-{STAGE}", metadata={"nbgrader": {"grade": False, "grade_id": STAGE, "locked": False,
                                                         "schema_version": 3, "solution": True, "task": False}}),
        nbformat.v4.new_code_cell(f'check("{STAGE}")', id=f"check-{STAGE}"),
    ]
    (kit / "solutions" / NOTEBOOK).mkdir()
    nbformat.write(master, kit / "solutions" / NOTEBOOK / f"{NOTEBOOK}.ipynb")
    (kit / f"autograder/hidden_tests/test_{NOTEBOOK}.py").write_text(HIDDEN_TEST, encoding="utf-8")
    with (kit / "autograder/course/rubric.toml").open("a", encoding="utf-8") as rubric:
        rubric.write(f'\n["{NOTEBOOK}"]\ntest_{STAGE} = 100  # {STAGE}\n')
    (kit / "autograder/student/selfcheck/assignment_05.py").write_text(SELF_CHECK, encoding="utf-8")
    for language in ("zh", "pt", LANGUAGE):
        catalog = {"intro": {"en_hash": english_hash(INTRO), "markdown": [f"# {language}: 5"]}}
        path = kit / "autograder/locales" / language / f"{NOTEBOOK}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(catalog, ensure_ascii=False), encoding="utf-8")
        stubs = {f"# {STUB_COMMENT}": {"en_hash": english_hash(STUB_COMMENT), "markdown": [f"{language}: here"]}}
        path.with_suffix(".stubs.json").write_text(json.dumps(stubs, ensure_ascii=False), encoding="utf-8")


def _add_language(kit: Path) -> None:
    """The recipe "Adding a language", with Portuguese's catalogs standing in for translations."""
    _replace(kit / "autograder/student/language.py", '"pt": "pt-BR"}', f'"pt": "pt-BR", "{LANGUAGE}": "{LANGUAGE}"}}')
    (kit / f"autograder/student/{LANGUAGE}.py").write_text(
        (kit / "autograder/student/pt.py").read_text(encoding="utf-8").replace('"pt"', f'"{LANGUAGE}"'),
        encoding="utf-8")
    project = kit / "autograder/student/pyproject.toml"
    _replace(project, '"attention_kit_student.locales.zh", ',
             f'"attention_kit_student.locales.zh", "attention_kit_student.locales.{LANGUAGE}", ')
    _replace(project, '"attention_kit_student.locales.zh" = ["*.json"]\n',
             f'"attention_kit_student.locales.zh" = ["*.json"]\n'
             f'"attention_kit_student.locales.{LANGUAGE}" = ["*.json"]\n')
    _replace(project, '"attention_kit_student.locales.zh" = ["*.hashes.json"]',
             f'"attention_kit_student.locales.zh" = ["*.hashes.json"]\n'
             f'"attention_kit_student.locales.{LANGUAGE}" = ["*.hashes.json"]')
    for locales in (kit / "autograder/locales", kit / "autograder/student/locales"):
        for catalog in (locales / "pt").iterdir():
            (locales / LANGUAGE).mkdir(exist_ok=True)
            if not (locales / LANGUAGE / catalog.name).exists():
                shutil.copyfile(catalog, locales / LANGUAGE / catalog.name)


class ExtendedKit:
    """The copy, and how to run its code."""

    def __init__(self, root: Path):
        self.root = root
        self.kit = _copy_of_the_kit(root)
        # attention_kit_student is the student folder under another name: the copy's, not the installed one.
        shim = root / "shim"
        shim.mkdir()
        (shim / "attention_kit_student").symlink_to(self.kit / "autograder" / "student")
        self.env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(self.kit), str(shim)]),
                    "KIT_SERVICE_DATA": str(root / "service-data"),
                    "DJANGO_SETTINGS_MODULE": "autograder.service.settings"}
        self.env.pop("PYTEST_ADDOPTS", None)

    def run(self, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
        done = subprocess.run([sys.executable, *args], cwd=self.kit, env=self.env, capture_output=True, text=True,
                              timeout=timeout)
        assert done.returncode == 0, f"{args}:\n{done.stdout[-3000:]}{done.stderr[-3000:]}"
        return done

    def python(self, code: str) -> str:
        return self.run("-c", code).stdout


@pytest.fixture(scope="module")
def extended(tmp_path_factory) -> ExtendedKit:
    kit = ExtendedKit(tmp_path_factory.mktemp("extended"))
    _add_notebook(kit.kit)
    _add_language(kit.kit)
    kit.run("-m", "autograder.notebooks.building", timeout=600)
    return kit


def test_the_copy_runs_its_own_code(extended):
    printed = extended.python("import autograder, attention_kit_student; print(autograder.__file__);"
                              " print(attention_kit_student.__file__)")
    assert all(line.startswith(str(extended.root)) for line in printed.split()), printed


def test_the_build_writes_the_new_notebook_in_every_language_and_every_notebook_in_the_new_one(extended):
    assignments = extended.kit / "assignments"
    notebook = nbformat.read(assignments / NOTEBOOK / f"{NOTEBOOK}.ipynb", as_version=4)
    [answer] = [cell for cell in notebook.cells if cell.id == f"answer-{STAGE}"]
    assert "BEGIN SOLUTION" not in answer.source
    assert "NotImplementedError" in answer.source
    for language in ("zh", "pt", LANGUAGE):
        assert (assignments / language / NOTEBOOK / f"{NOTEBOOK}.ipynb").is_file()
    translated = list((assignments / LANGUAGE).glob("*/*.ipynb"))
    assert len(translated) == 5
    assert all(nbformat.read(path, as_version=4).metadata["attention_kit"]["language"] == LANGUAGE
               for path in translated)
    [setup] = [cell for cell in nbformat.read(translated[0], as_version=4).cells if cell.id == "self-checks"]
    assert f"from attention_kit_student.{LANGUAGE} import check" in setup.source


def test_the_graders_session_collects_the_new_stage_under_strict_markers(extended):
    bare = extended.root / "pytest.ini"
    bare.write_text("[pytest]\n")
    printed = extended.python(
        "import sys, pytest\n"
        "from autograder.grading.shard import pytest_args\n"
        "class Collected:\n"
        "    def pytest_collection_finish(self, session):\n"
        "        print(*(item.nodeid for item in session.items))\n"
        f"args = [*pytest_args({{'{NOTEBOOK}'}}, ['cpu']), '--collect-only', '-c', {str(bare)!r}]\n"
        "sys.exit(pytest.main(args, plugins=[Collected()]))\n")
    assert f"test_{NOTEBOOK}.py::test_{STAGE}" in printed
    assert extended.python(f"from autograder.course import rubric; print(rubric.max_score('{NOTEBOOK}'))").strip() \
        == "100.0"


def test_the_service_takes_the_new_notebook_without_a_migration(extended):
    extended.run("-m", "django", "makemigrations", "--check", "--dry-run", "service")
    extended.run("-m", "autograder", "service", "migrate")
    printed = extended.run("-m", "autograder", "service", "policy", NOTEBOOK, "--late-penalty", "5").stdout
    assert printed.startswith(f"{NOTEBOOK}: due none, late penalty 5 %")


def test_the_kits_lists_hold_the_new_notebook_and_language(extended):
    printed = extended.python(
        "from autograder.student.curriculum import ASSIGNMENTS\n"
        "from autograder.student.language import LANGUAGES\n"
        "from autograder.student.selfcheck import CHECKS\n"
        "from autograder.worker.forkserver import helper_modules\n"
        f"import attention_kit_student.{LANGUAGE}\n"
        f"print(ASSIGNMENTS[-1], LANGUAGES[-1], '{STAGE}' in CHECKS, helper_modules()[-1])\n")
    assert printed.split() == [NOTEBOOK, LANGUAGE, "True", f"attention_kit_student.{LANGUAGE}"]


def test_the_student_package_ships_the_new_languages_catalogs(extended):
    out = extended.root / "student-dist"
    extended.run("-m", "build", "--wheel", "--quiet", "--no-isolation", "--outdir", str(out),
                 str(extended.kit / "autograder/student"))
    [wheel] = out.glob("*.whl")
    listed = subprocess.run(["unzip", "-Z1", str(wheel)], check=True, capture_output=True, text=True).stdout
    assert f"attention_kit_student/{LANGUAGE}.py" in listed.split()
    assert f"attention_kit_student/locales/{LANGUAGE}/mistakes.json" in listed.split()


def test_no_other_file_of_the_kit_changed(extended):
    """Run last (pytest keeps the file's order): what every step above left behind."""
    status = _git(extended.kit, "status", "--porcelain", "--untracked-files=all").splitlines()
    edited = {line[3:] for line in status if line.startswith(" M")}
    added = {line[3:] for line in status if line.startswith("??")}
    assert edited == EDITED
    catalogs = {path for path in added if path.startswith(LANGUAGE_FOLDERS)} - ADDED_FOR_THE_NOTEBOOK
    assert {path.rsplit("/", 1)[-1] for path in catalogs} >= {"mistakes.json", "findings.json", "service.json"}
    # assignments/: the build's output, new notebooks only (the others are rebuilt to the same bytes).
    built = {path for path in added if path.startswith("assignments/")}
    assert added - built - catalogs == ADDED_FOR_THE_NOTEBOOK | ADDED_FOR_THE_LANGUAGE
    # Each new folder holds its notebook and the grading rules its last cell links to.
    folders = {f"assignments/{language}{NOTEBOOK}/{NOTEBOOK}" for language in ("", "zh/", "pt/")} | {
        f"assignments/{LANGUAGE}/{assignment}/{assignment}" for assignment in ASSIGNMENTS + [NOTEBOOK]}
    assert built == {f"{notebook}.ipynb" for notebook in folders} | {
        f"{notebook.rsplit('/', 1)[0]}/grading-rules.md" for notebook in folders}
