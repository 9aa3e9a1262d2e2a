"""Gradescope: the autograder zip, and its run_autograder run for real on a sample submission
in a temporary root (AUTOGRADER_ROOT), writing results.json in Gradescope's schema."""

from __future__ import annotations

import csv
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import pytest
from container import NO_LANDLOCK, container_skip_reason, run_as_container
from platform_class import ASSIGNMENT, graded_class, wrong_dim_notebook

from autograder.notebooks.variants import load_solution, load_student, notebook_text, with_cell
from autograder.platforms.gradescope import run
from autograder.platforms.gradescope.package import build_zip

VISIBILITIES = {"hidden", "after_due_date", "after_published", "visible"}


@pytest.fixture(scope="module")
def autograder_zip(tmp_path_factory):
    return build_zip(ASSIGNMENT, tmp_path_factory.mktemp("zips"))


def test_zip_has_gradescopes_files_at_its_root_and_the_kit(autograder_zip):
    with zipfile.ZipFile(autograder_zip) as archive:
        entries = {info.filename: info for info in archive.infolist()}
        assert archive.read("assignment.txt").decode() == f"{ASSIGNMENT}\n"
    for script in ("setup.sh", "run_autograder"):
        assert stat.S_IMODE(entries[script].external_attr >> 16) == 0o755
    for needed in ("pyproject.toml", "autograder/course/rubric.toml", f"autograder/hidden_tests/test_{ASSIGNMENT}.py",
                   f"solutions/{ASSIGNMENT}/{ASSIGNMENT}.ipynb", "autograder/student/your_journey.json"):
        assert needed in entries
    assert not [name for name in entries if "__pycache__" in name or name.startswith("source_data/")]


def test_zip_is_the_same_bytes_every_time(autograder_zip, tmp_path):
    assert build_zip(ASSIGNMENT, tmp_path).read_bytes() == autograder_zip.read_bytes()


def test_setup_script_is_valid_bash(autograder_zip, tmp_path):
    with zipfile.ZipFile(autograder_zip) as archive:
        archive.extract("setup.sh", tmp_path)
    subprocess.run(["bash", "-n", str(tmp_path / "setup.sh")], check=True)


# Stand-ins for what setup.sh calls on Gradescope's image: apt-get does nothing, and python3 is
# this interpreter posing as the version under test (every call is logged).
FAKE_APT = "#!/bin/sh\nexit 0\n"
FAKE_PYTHON = """#!/bin/sh
echo "$@" >> "$CALLS"
case "$1" in
  --version) echo "Python $FAKE_VERSION";;
  -c) exec "$REAL_PYTHON" -c "import sys; sys.version_info = tuple(map(int, '$FAKE_VERSION'.split('.'))); $2";;
  -m) exit 0;;
esac
"""


def _run_setup(autograder_zip, tmp_path, version: str) -> tuple[subprocess.CompletedProcess, str]:
    with zipfile.ZipFile(autograder_zip) as archive:
        archive.extract("setup.sh", tmp_path)
    bin_folder = tmp_path / "bin"
    bin_folder.mkdir()
    for name, text in (("apt-get", FAKE_APT), ("python3", FAKE_PYTHON)):
        (bin_folder / name).write_text(text)
        (bin_folder / name).chmod(0o755)
    calls = tmp_path / "calls"
    env = {"PATH": f"{bin_folder}:/usr/bin:/bin", "CALLS": str(calls), "FAKE_VERSION": version,
           "REAL_PYTHON": sys.executable, "AUTOGRADER_ROOT": str(tmp_path / "root")}
    result = subprocess.run(["bash", str(tmp_path / "setup.sh")], capture_output=True, text=True, env=env)
    return result, calls.read_text() if calls.exists() else ""


@pytest.mark.parametrize("version", ["3.10.12", "3.12.3"])
def test_setup_accepts_the_python_of_gradescopes_images(autograder_zip, tmp_path, version):
    """Ubuntu 22.04 (Gradescope's default image) has 3.10, 24.04 has 3.12: both go on to make the venv."""
    result, calls = _run_setup(autograder_zip, tmp_path, version)
    assert "too old" not in result.stderr
    assert f"-m venv {tmp_path / 'root' / 'venv'}" in calls


def test_setup_refuses_an_older_python_and_names_the_image(autograder_zip, tmp_path):
    result, calls = _run_setup(autograder_zip, tmp_path, "3.9.7")
    assert result.returncode == 1
    assert "Python 3.9.7 is too old: the kit needs Python 3.10 or newer" in result.stderr
    assert "Ubuntu 22.04 base image" in result.stderr
    assert "-m venv" not in calls


def _gradescope_root(tmp_path, autograder_zip):
    """Gradescope's layout: the zip in source/, run_autograder copied beside it, an empty results/."""
    root = tmp_path / "autograder"
    with zipfile.ZipFile(autograder_zip) as archive:
        archive.extractall(root / "source")
    shutil.copyfile(root / "source" / "run_autograder", root / "run_autograder")
    (root / "run_autograder").chmod(0o755)
    (root / "submission").mkdir()
    (root / "results").mkdir()
    return root


@pytest.mark.slow
def test_run_autograder_grades_an_uploaded_zip_into_results_json(tmp_path, tmp_path_factory, autograder_zip):
    root = _gradescope_root(tmp_path, autograder_zip)
    # What otter's grader.export() uploads: a zip holding the notebook, renamed by the student.
    with zipfile.ZipFile(root / "submission" / "export.zip", "w") as upload:
        upload.writestr("my attention (final).ipynb", notebook_text(wrong_dim_notebook()))
    env = {**os.environ, "AUTOGRADER_ROOT": str(root), "KIT_PYTHON": sys.executable}
    result = subprocess.run([str(root / "run_autograder")], cwd=root, env=env, capture_output=True, text=True,
                            timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    document = json.loads((root / "results" / "results.json").read_text())

    with (graded_class(tmp_path_factory).out / "grades.csv").open() as handle:
        ben = {row["student_id"]: row for row in csv.DictReader(handle)}["ben"]  # the same notebook
    assert document["score"] == float(ben["score"])
    tests = document["tests"]
    for test in tests:
        assert isinstance(test["name"], str)
        assert isinstance(test["output"], str)
        assert test["status"] in ("passed", "failed")
        assert test["visibility"] in VISIBILITIES
    details = [test for test in tests if "score" in test]
    summaries = [test for test in tests if "score" not in test]
    assert {test["visibility"] for test in details} == {"after_due_date"}
    assert {test["visibility"] for test in summaries} == {"visible"}
    assert sum(test["max_score"] for test in details) == pytest.approx(float(ben["max_score"]), abs=0.01)
    assert sum(test["score"] for test in details) == pytest.approx(document["score"], abs=0.01)
    assert [s["name"] for s in summaries if s["status"] == "failed"] == [
        "softmax_naive: 3 of 11 hidden tests passed"]
    failing = [test for test in details if test["status"] == "failed"]
    # the "from the formula" behaviour check counts: every failing value test is pinned to the
    # softmax (the catalogue reproduces its output), so the stage loses that share, not the check
    assert not [test for test in failing if "overflows_as_the_formula" in test["name"]]
    assert failing
    assert all("Likely mistake: the softmax normalised over the wrong dimension" in t["output"] for t in failing)
    assert "Likely mistake" not in json.dumps(summaries) + document["output"]


def test_nothing_uploaded_scores_zero_with_a_message(tmp_path):
    (tmp_path / "submission").mkdir()
    assert run.main(["--root", str(tmp_path), "--assignment", ASSIGNMENT]) == 0
    document = json.loads((tmp_path / "results" / "results.json").read_text())
    assert document["score"] == 0
    assert document["tests"] == []
    assert f"no notebook was uploaded; submit {ASSIGNMENT}.ipynb" in document["output"]


@pytest.mark.parametrize(("files", "expected"), [
    ({f"{ASSIGNMENT}.ipynb": b"{}", "scratch.ipynb": b"[]"}, f"{ASSIGNMENT}.ipynb"),
    ({"renamed.ipynb": b"{}"}, "renamed.ipynb"),
    ({".ipynb_checkpoints/x-checkpoint.ipynb": b"[]", "renamed.ipynb": b"{}"}, "renamed.ipynb"),
])
def test_the_named_notebook_wins_else_the_only_one(tmp_path, files, expected):
    for name, content in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(content)
    assert run.find_notebook(tmp_path, ASSIGNMENT) == (b"{}", expected)


def test_two_other_notebooks_are_reported_as_misnamed(tmp_path):
    (tmp_path / "a.ipynb").write_text("{}")
    (tmp_path / "b.ipynb").write_text("{}")
    assert run.find_notebook(tmp_path, ASSIGNMENT) == (
        None, f"misnamed: found a.ipynb, b.ipynb; expected {ASSIGNMENT}.ipynb")


def test_a_notebook_inside_an_uploaded_zip_is_found(tmp_path):
    with zipfile.ZipFile(tmp_path / "upload.zip", "w") as upload:
        upload.writestr(f"work/{ASSIGNMENT}.ipynb", "{}")
        upload.writestr("work/notes.ipynb", "[]")
    assert run.find_notebook(tmp_path, ASSIGNMENT) == (b"{}", f"upload.zip:work/{ASSIGNMENT}.ipynb")


def test_an_oversized_notebook_is_not_read(tmp_path):
    with (tmp_path / f"{ASSIGNMENT}.ipynb").open("wb") as handle:
        handle.truncate(65 * 2**20)  # a sparse file: over the limit without using the disk
    assert run.find_notebook(tmp_path, ASSIGNMENT) == (None, f"unreadable: {ASSIGNMENT}.ipynb is over 64 MiB")


def _solution_reading_stub(solutions: Path) -> dict:
    """The untouched student notebook, plus a class whose body reads the solution notebook from
    the autograder's own folder and runs its cells: full marks, if the sandbox let it."""
    path = solutions / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
    cheat = (f"class _Answers:\n    import json as _json\n    for _cell in _json.load(open({str(path)!r}))['cells']:\n"
             "        if _cell['cell_type'] == 'code':\n"
             "            try:\n                exec(''.join(_cell['source']), globals())\n"
             "            except Exception:\n                pass\n")
    return with_cell(load_student(ASSIGNMENT), cheat)


@pytest.fixture
def open_folder():
    """A folder every user may pass through, as /autograder is: only run_autograder's own chmod
    then keeps the autograder's files from student code, where there is no Landlock."""
    folder = Path(tempfile.mkdtemp(prefix="attention-gradescope-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.slow
@pytest.mark.parametrize("landlock", [True, False], ids=["landlock", "no-landlock"])
@pytest.mark.parametrize(("name", "expected_score"), [("correct", 100.0), ("reads-the-solutions", 0.0)])
@pytest.mark.container
def test_run_autograder_in_gradescopes_conditions(open_folder, autograder_zip, name, expected_score, landlock):
    """No CAP_SYS_ADMIN, 768 MB and half a CPU, as Gradescope runs it, on a kernel with Landlock
    and on one without (Gradescope's runners): the canary and the start-up checks pass, correct
    code earns full marks, code that reads the solutions earns nothing, and memory peaks with real
    headroom."""
    if reason := container_skip_reason():
        pytest.skip(reason)
    root = _gradescope_root(open_folder, autograder_zip)
    notebook = load_solution(ASSIGNMENT) if name == "correct" else _solution_reading_stub(root / "source" / "solutions")
    (root / "submission" / f"{ASSIGNMENT}.ipynb").write_text(notebook_text(notebook))
    env = {**os.environ, "AUTOGRADER_ROOT": str(root), "KIT_PYTHON": sys.executable}
    kernel = [] if landlock else [sys.executable, str(NO_LANDLOCK)]
    run = run_as_container([*kernel, str(root / "run_autograder")], memory_mb=768, cpu=0.5, cwd=root, env=env)
    assert run.result.returncode == 0, run.result.stdout[-3000:] + run.result.stderr[-3000:]
    assert ("no landlock files: no Landlock in this kernel" in run.result.stdout) is not landlock
    document = json.loads((root / "results" / "results.json").read_text())
    assert document["score"] == expected_score
    assert "limits only" in run.result.stdout  # the container's fallback, not the namespaces
    assert run.peak_mb <= 600, f"peak memory {run.peak_mb:.0f} MB"
