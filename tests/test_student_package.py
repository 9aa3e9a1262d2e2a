"""The student package and the release bundles: what students get, and only that.

The wheel is built from ``autograder/student/`` (from a copy, so the kit's tree stays clean). A
fresh virtual environment holds only torch, ipykernel and nbclient: every English release
bundle, unzipped alone in an empty folder, runs top to bottom there, its first cell installing
matplotlib and the wheel. Every student notebook, in every language, is also executed from an
empty folder holding only the notebook (matplotlib installed beforehand, as on Colab): installing
the package from a wheel beside the notebook, with the stubs and with the solutions filled in;
without the package, the setup cell stops and says how to install it.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tarfile
import venv
import zipfile
from dataclasses import dataclass
from pathlib import Path

import nbformat
import pytest
from kit_notebooks import errors, printed_text

from autograder.notebooks import release, self_checks_cell
from autograder.notebooks.building import with_self_checks
from autograder.notebooks.variants import filled
from autograder.paths import KIT_ROOT, STUDENT_PACKAGE_DIR, solution_notebook
from autograder.student import language as languages
from autograder.student.curriculum import ASSIGNMENTS, STAGES_BY_ASSIGNMENT
from autograder.student.selfcheck import MESSAGES

pytestmark = pytest.mark.slow

EXECUTE = Path(__file__).with_name("execute_notebooks.py")
STUDENT_REQUIREMENTS = ["torch==2.13.0", "ipykernel", "nbclient"]
# What no student may receive: markers of solution regions, the hidden tests, the rubric, the
# grader, the reference solutions.
SECRET_MARKERS = ("BEGIN SOLUTION", "hidden_tests", "rubric", "solutions/", "autograder.grading",
                  "autograder.hidden", "load_reference")


def _build(source: Path, out: Path) -> tuple[list[Path], str]:
    """Build the wheel and sdist of the package in ``source`` (a copy) into ``out``, as `make
    student-package` does; returns the files and what the build printed."""
    result = subprocess.run([sys.executable, "-m", "build", "--quiet", "--no-isolation", "--outdir", str(out),
                             str(source)], check=True, capture_output=True, text=True, timeout=300)
    return sorted(out.iterdir()), result.stdout + result.stderr


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, Path | str]:
    root = tmp_path_factory.mktemp("student-package")
    source = root / "source"
    shutil.copytree(STUDENT_PACKAGE_DIR, source, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "build"))
    files, printed = _build(source, root / "dist")
    return {"wheel": next(path for path in files if path.suffix == ".whl"),
            "sdist": next(path for path in files if path.name.endswith(".tar.gz")), "printed": printed}


def test_the_build_prints_no_setuptools_warning(built):
    """`make student-package` (so every target that builds the notebooks) used to print about 270
    lines of setuptools warnings about the locale folders."""
    assert "warning" not in built["printed"].lower(), built["printed"]
    assert len(built["printed"].splitlines()) < 10


@dataclass(frozen=True)
class StudentPython:
    """A fresh environment with only what a student has, and the packages it started with."""

    python: Path
    baseline: frozenset[str]

    def installed(self) -> set[str]:
        listed = subprocess.run([str(self.python), "-m", "pip", "list", "--format=freeze"], check=True,
                                capture_output=True, text=True, timeout=300).stdout
        return {line.split("==")[0].lower().replace("_", "-") for line in listed.split()}

    def holding(self, *requirements: str | Path) -> Path:
        """Its python, with nothing installed beyond the start but ``requirements``."""
        added = sorted(self.installed() - self.baseline)
        if added:
            subprocess.run([str(self.python), "-m", "pip", "uninstall", "--quiet", "--yes", *added],
                           check=True, timeout=300)
        if requirements:
            subprocess.run([str(self.python), "-m", "pip", "install", "--quiet", *map(str, requirements)],
                           check=True, timeout=900)
        return self.python


@pytest.fixture(scope="module")
def student_python(tmp_path_factory) -> StudentPython:
    """A fresh environment with only torch, ipykernel and nbclient (each test adds what it needs)."""
    environment = tmp_path_factory.mktemp("student-venv") / "venv"
    venv.EnvBuilder(with_pip=True).create(environment)
    python = environment / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", *STUDENT_REQUIREMENTS], check=True, timeout=900)
    return StudentPython(python, frozenset(StudentPython(python, frozenset()).installed()))


def _clean_env(home: Path) -> dict[str, str]:
    """No PYTHONPATH, no user site, no kit: the environment a student's kernel has."""
    return {"PATH": "/usr/bin:/bin", "HOME": str(home), "PYTHONNOUSERSITE": "1", "LANG": "C.UTF-8",
            "OMP_NUM_THREADS": "1"}  # one thread per kernel, as every process of the suite (worker_groups.py)


def _execute(python: Path, notebooks: dict[str, nbformat.NotebookNode], root: Path,
             beside: list[Path] = ()) -> dict[str, nbformat.NotebookNode]:
    """Run each notebook with ``python``'s kernel, alone in an empty folder (with ``beside``)."""
    jobs = []
    for key, notebook in notebooks.items():
        folder = root / key.replace("/", "-")
        folder.mkdir(parents=True)
        for extra in beside:
            shutil.copy(extra, folder / extra.name)
        path = folder / "notebook.ipynb"
        nbformat.write(notebook, path)
        jobs.append({"notebook": str(path), "cwd": str(folder)})
    spec = root / "jobs.json"
    spec.write_text(json.dumps(jobs))
    subprocess.run([str(python), str(EXECUTE), str(spec)], check=True, timeout=3600, env=_clean_env(root))
    return {key: nbformat.read(job["notebook"], as_version=4) for key, job in zip(notebooks, jobs, strict=True)}


def _student_notebooks() -> dict[str, nbformat.NotebookNode]:
    return {f"{language}/{assignment_id}": nbformat.read(
        release.student_notebook_folder(language, assignment_id) / f"{assignment_id}.ipynb", as_version=4)
        for language in languages.LANGUAGES for assignment_id in ASSIGNMENTS}


def _said(language: str, key: str, **fields: str) -> str:
    text = languages.messages(language, "selfcheck", MESSAGES)[key].format(**fields)
    return re.sub(r"\s+", " ", text)


def _words(language: str, key: str) -> str:
    """The fixed start of a self-checks cell line (before its first field), whitespace collapsed."""
    return re.sub(r"\s+", " ", self_checks_cell.words(language)[key].split("{")[0]).strip()


def _waits(language: str) -> str:
    """The fixed start of the line a demo prints while its stage is unfinished."""
    return re.sub(r"\s+", " ", languages.messages(language, "selfcheck", MESSAGES)["needs.finish_first"]
                  .split("{")[0]).strip()


# ---------------------------------------------------------------- what the package holds


def _archive_texts(path: Path) -> dict[str, str]:
    if path.suffix == ".whl":
        with zipfile.ZipFile(path) as archive:
            return {name: archive.read(name).decode("utf-8", "replace") for name in archive.namelist()}
    with tarfile.open(path) as archive:
        return {member.name: archive.extractfile(member).read().decode("utf-8", "replace")
                for member in archive.getmembers() if member.isfile()}


@pytest.mark.parametrize("kind", ["wheel", "sdist"])
def test_the_package_holds_no_solution_hidden_test_rubric_or_grader(built, kind):
    texts = _archive_texts(built[kind])
    assert any(name.endswith("selfcheck/runner.py") for name in texts)
    assert any(name.endswith("locales/zh/selfcheck.json") for name in texts)
    assert any(name.endswith("your_journey.json") for name in texts)
    assert not [name for name in texts if name.endswith(".hashes.json")]  # the translations' reviews stay here
    for name, text in texts.items():
        assert not any(marker in name for marker in ("solutions", "hidden_tests", "rubric", "autograder/")), name
        assert not [marker for marker in SECRET_MARKERS if marker in text], name


def test_the_package_imports_nothing_from_the_grader(built, student_python, tmp_path):
    python = student_python.holding(built["wheel"])
    script = ("import sys, attention_kit_student.selfcheck, attention_kit_student.example, attention_kit_student.zh;"
              " assert callable(attention_kit_student.zh.submit);"  # submit() needs nothing more either
              " print(sorted(name for name in sys.modules if name.split('.')[0] == 'autograder'))")
    result = subprocess.run([str(python), "-c", script], capture_output=True, text=True, check=True,
                            cwd=tmp_path, env=_clean_env(tmp_path))
    assert result.stdout.strip() == "[]"


def test_the_package_and_the_kit_have_one_version():
    from autograder.worker.compat import tomllib

    kit = tomllib.loads((KIT_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    assert self_checks_cell.student_package_version() == kit


# ---------------------------------------------------------------- the notebooks, as students run them


@pytest.fixture(scope="module")
def without_the_package(student_python, tmp_path_factory) -> dict[str, nbformat.NotebookNode]:
    """Each language's setup cell alone, in an empty folder: no wheel beside it to install."""
    notebooks = {}
    for language in languages.LANGUAGES:
        notebook = _student_notebooks()[f"{language}/{ASSIGNMENTS[0]}"]
        notebook.cells = [cell for cell in notebook.cells if cell.get("id") == self_checks_cell.CELL_ID]
        notebooks[language] = notebook
    return _execute(student_python.holding("matplotlib"), notebooks, tmp_path_factory.mktemp("without"))


@pytest.fixture(scope="module")
def installed_beside(student_python, built, tmp_path_factory) -> nbformat.NotebookNode:
    """The English first notebook with the wheel beside it: its self-checks cell installs it."""
    executed = _execute(student_python.holding("matplotlib"), {"en/01": _student_notebooks()[f"en/{ASSIGNMENTS[0]}"]},
                        tmp_path_factory.mktemp("beside"), beside=[built["wheel"]])
    return executed["en/01"]


@pytest.fixture(scope="module")
def with_stubs(student_python, built, tmp_path_factory) -> dict[str, nbformat.NotebookNode]:
    python = student_python.holding("matplotlib", built["wheel"])
    return _execute(python, _student_notebooks(), tmp_path_factory.mktemp("stubs"))


@pytest.fixture(scope="module")
def with_solutions(student_python, built, tmp_path_factory) -> dict[str, nbformat.NotebookNode]:
    notebooks = {}
    for key, student in _student_notebooks().items():
        language, assignment_id = key.split("/")
        solution = nbformat.read(solution_notebook(assignment_id), as_version=4)
        notebooks[key] = nbformat.from_dict(filled(student, solution, STAGES_BY_ASSIGNMENT[assignment_id]))
    python = student_python.holding("matplotlib", built["wheel"])
    return _execute(python, notebooks, tmp_path_factory.mktemp("solutions"))


@pytest.mark.parametrize("language", languages.LANGUAGES)
def test_without_the_package_the_setup_cell_stops_and_says_how_to_get_it(without_the_package, language):
    """The cell stops at its import, and the traceback shows the comment above that line: the
    pip command, in the notebook's language."""
    (cell,) = without_the_package[language].cells
    (error,) = [output for output in cell.outputs if output.output_type == "error"]
    assert error.ename == "ModuleNotFoundError"
    traceback = re.sub(r"\x1b\[[0-9;]*m", "", "\n".join(error.traceback))
    assert "pip install " + self_checks_cell.wheel_name() in traceback
    comment = re.sub(r"\s*\n\s*(?:\d+\s+)?#\s*", " ", traceback)  # the comment's lines (numbered) joined
    assert _words(language, "missing") in re.sub(r"\s+", " ", comment)


def test_the_setup_cell_installs_the_package_from_beside_the_notebook(installed_beside):
    assert errors(installed_beside) == []
    printed = printed_text(installed_beside)
    assert _said("en", "failed", stage="attention_scores", detail=_said("en", "not_implemented")) in printed


@pytest.mark.parametrize("key", [f"{language}/{a}" for language in languages.LANGUAGES for a in ASSIGNMENTS])
def test_with_the_stubs_only_the_self_checks_complain(with_stubs, key):
    notebook, (language, assignment_id) = with_stubs[key], key.split("/")
    assert errors(notebook) == []
    printed = printed_text(notebook)
    for stage in STAGES_BY_ASSIGNMENT[assignment_id]:
        assert _said(language, "failed", stage=stage, detail=_said(language, "not_implemented")) in printed, stage
    assert _waits(language) in printed  # the demos waited, one line each


@pytest.mark.parametrize("key", [f"{language}/{a}" for language in languages.LANGUAGES for a in ASSIGNMENTS])
def test_with_the_solutions_every_check_passes(with_solutions, key):
    notebook, (language, assignment_id) = with_solutions[key], key.split("/")
    assert errors(notebook) == []
    printed = printed_text(notebook)
    for stage in STAGES_BY_ASSIGNMENT[assignment_id]:
        assert _said(language, "passed", stage=stage) in printed, stage
    assert "❌" not in printed
    assert _waits(language) not in printed


# ---------------------------------------------------------------- release bundles


def test_release_bundles_hold_the_notebook_tests_and_wheel_and_nothing_secret(built, tmp_path, monkeypatch):
    monkeypatch.setattr(release, "DIST_DIR", built["wheel"].parent)
    zips = release.write_release(tmp_path / "release")
    assert len(zips) == len(languages.LANGUAGES) * len(ASSIGNMENTS)
    for archive_path in zips:
        assignment_id = archive_path.stem
        with zipfile.ZipFile(archive_path) as archive:
            names = set(archive.namelist())
            assert f"{assignment_id}/{assignment_id}.ipynb" in names
            assert f"{assignment_id}/{built['wheel'].name}" in names
            assert f"{assignment_id}/grading-rules.md" in names  # the notebook's last cell links to it
            assert {f"{assignment_id}/tests/{stage}.py" for stage in STAGES_BY_ASSIGNMENT[assignment_id]} <= names
            for name in names:
                text = archive.read(name).decode("utf-8", "replace")
                assert not [marker for marker in SECRET_MARKERS if marker in text], name
    assert release.write_release(tmp_path / "again")[0].read_bytes() == zips[0].read_bytes()


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_an_english_bundle_alone_runs_in_an_environment_with_only_torch(built, student_python, tmp_path,
                                                                         monkeypatch, assignment_id):
    """The bundle's zip, unzipped alone in an empty folder, in a fresh environment holding only
    torch, ipykernel and nbclient: the first cell installs matplotlib and the wheel beside the
    notebook, and Run All raises nothing (the stubs' NotImplementedError is caught and said)."""
    monkeypatch.setattr(release, "DIST_DIR", built["wheel"].parent)
    archive_path = release.write_release(tmp_path / "release")[ASSIGNMENTS.index(assignment_id)]
    assert archive_path == tmp_path / "release" / "en" / f"{assignment_id}.zip"
    folder = tmp_path / "student"
    with zipfile.ZipFile(archive_path) as archive:
        archive.extractall(folder)
    notebook_path = folder / assignment_id / f"{assignment_id}.ipynb"
    jobs = tmp_path / "jobs.json"
    jobs.write_text(json.dumps([{"notebook": str(notebook_path), "cwd": str(notebook_path.parent)}]))
    python = student_python.holding()
    subprocess.run([str(python), str(EXECUTE), str(jobs)], check=True, timeout=1800, env=_clean_env(tmp_path))
    notebook = nbformat.read(notebook_path, as_version=4)
    assert errors(notebook) == []
    printed = printed_text(notebook)
    for stage in STAGES_BY_ASSIGNMENT[assignment_id]:
        assert _said("en", "failed", stage=stage, detail=_said("en", "not_implemented")) in printed, stage
    assert _waits("en") in printed
    assert "⚠" not in printed
    assert {"matplotlib", "attention-kit-student"} <= student_python.installed()
    student_python.holding()  # the next bundle starts from the same bare environment


def test_a_release_can_install_the_package_from_a_url(tmp_path):
    url = "https://example.edu/course/attention_kit_student-0.1.0-py3-none-any.whl"
    files = release.bundle_files("pt", ASSIGNMENTS[0], url)
    assert not [name for name in files if name.endswith(".whl")]
    notebook = nbformat.reads(files[f"{ASSIGNMENTS[0]}.ipynb"].decode(), as_version=4)
    cell = next(cell for cell in notebook.cells if cell.get("id") == self_checks_cell.CELL_ID)
    assert f"CHECKS_PACKAGE = {url!r}" in cell.source
    assert "from attention_kit_student.pt import check, hint, predict" in cell.source


def test_the_committed_notebooks_self_checks_cells_are_current():
    for key, notebook in _student_notebooks().items():
        language = key.split("/")[0]
        expected = with_self_checks(nbformat.from_dict(json.loads(nbformat.writes(notebook))), language)
        assert nbformat.writes(expected) == nbformat.writes(notebook), f"{key}: run `make assignments`"
