"""Release bundles: what an instructor hands out, per language and notebook.

    python -m autograder.notebooks.release [--checks-package LOCATION] [--service URL]   (`make release`)

For every language and assignment, ``dist/release/<language>/<assignment_id>/`` holds the
student notebook (its self-checks cell installing the student package from LOCATION, and with
``--service`` the submission service's address in its metadata, ``attention_kit.service``,
where the notebook's ``submit()`` sends it), the
full grading rules that its last cell links to (``grading-rules.md``), the otter ``tests/``
folder beside it, and the student wheel when the notebook installs it from a file beside itself
(the default). ``dist/release/<language>/<assignment_id>.zip`` holds the
same files, for an LMS or a JupyterHub upload. The bundles are made from the committed student
notebooks, so they never hold a solution, a hidden test or the rubric (a test inspects them);
the same inputs always give the same bytes.

With ``--answers`` (``make release ANSWERS=1``), and only then, ``dist/release/<language>/answers/``
also holds each notebook's answers for the students, to hand out once the assignment is closed:
``<assignment_id>.ipynb``, the notebook with the reference code in its answer cells and each
"Think about it" question's model answer after it (``autograder.notebooks.model_answers``), its
self-checks cell as the bundle's (with the wheel beside it, where that cell installs it from).
They stay out of the bundles and their zips.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import urllib.parse
import zipfile
from pathlib import Path

import nbformat

from autograder.notebooks import grading_rules, self_checks_cell
from autograder.notebooks.building import with_answer_cells, with_self_checks
from autograder.notebooks.model_answers import answer_translation_problems, answers_notebook
from autograder.paths import ASSIGNMENTS_DIR, DIST_DIR
from autograder.platforms.otter_tests import TESTS_FOLDER
from autograder.student.curriculum import ASSIGNMENTS
from autograder.student.language import DEFAULT_LANGUAGE, LANGUAGES, METADATA_KEY

RELEASE_DIR = DIST_DIR / "release"
ANSWERS_FOLDER = "answers"  # beside the bundles of each language, never inside one
_DATE = (1980, 1, 1, 0, 0, 0)  # zip entries' date: the same files give the same bytes


class ReleaseError(Exception):
    """A bundle cannot be made; the message says what to do."""


def student_notebook_folder(language: str, assignment_id: str) -> Path:
    """Where the committed student notebook of ``assignment_id`` in ``language`` lives."""
    base = ASSIGNMENTS_DIR if language == DEFAULT_LANGUAGE else ASSIGNMENTS_DIR / language
    return base / assignment_id


def service_address(url: str) -> str:
    """The submission service's address as the notebooks keep it; ReleaseError unless it is one."""
    parts = urllib.parse.urlsplit(url.strip())
    if parts.scheme not in ("https", "http") or not parts.netloc or parts.query or parts.fragment:
        raise ReleaseError(f"--service {url!r} is no web address: give the service's base URL, as students open it"
                           " (https://grader.example.edu)")
    return url.strip().rstrip("/")


def bundle_files(language: str, assignment_id: str, location: str | None, service: str | None = None
                 ) -> dict[str, bytes]:
    """The files of one bundle, by their path inside it."""
    folder = student_notebook_folder(language, assignment_id)
    notebook = with_self_checks(nbformat.read(folder / f"{assignment_id}.ipynb", as_version=4), language, location)
    if service:
        notebook.metadata.setdefault(METADATA_KEY, {})["service"] = service
    files = {f"{assignment_id}.ipynb": nbformat.writes(notebook).encode("utf-8") + b"\n"}
    rules = folder / grading_rules.FILE_NAME  # the notebook's last cell links to it
    if not rules.is_file():
        raise ReleaseError(f"{rules} is missing: run `make assignments` first")
    files[rules.name] = rules.read_bytes()
    for test in sorted((folder / TESTS_FOLDER).glob("*.py")):
        files[f"{TESTS_FOLDER}/{test.name}"] = test.read_bytes()
    if location is None:  # the notebook installs the wheel from beside itself
        wheel = DIST_DIR / self_checks_cell.wheel_name()
        if not wheel.is_file():
            raise ReleaseError(f"{wheel} is missing: run `make student-package` first")
        files[wheel.name] = wheel.read_bytes()
    return files


def answers_file(language: str, assignment_id: str, location: str | None) -> bytes:
    """The answers of ``assignment_id`` in ``language``, as a notebook that installs the student
    package from ``location`` as the bundles do; ReleaseError when a model answer is not translated."""
    problems = answer_translation_problems(language, assignment_id) if language != DEFAULT_LANGUAGE else []
    if problems:
        raise ReleaseError("the model answers are not all translated: " + "; ".join(problems))
    notebook = with_answer_cells(with_self_checks(answers_notebook(assignment_id, language), language, location),
                                 language)
    return nbformat.writes(notebook).encode("utf-8") + b"\n"


def write_release(out: Path = RELEASE_DIR, location: str | None = None, service: str | None = None,
                  answers: bool = False) -> list[Path]:
    """Write every bundle (folder and zip) under ``out``, and with ``answers`` the answers of each
    notebook in ``out/<language>/answers/``; returns the zips written."""
    service = service_address(service) if service else None
    answer_files = {(language, assignment_id): answers_file(language, assignment_id, location)
                    for language in LANGUAGES for assignment_id in ASSIGNMENTS} if answers else {}
    shutil.rmtree(out, ignore_errors=True)
    zips = []
    for language in LANGUAGES:
        for assignment_id in ASSIGNMENTS:
            files = bundle_files(language, assignment_id, location, service)
            folder = out / language / assignment_id
            for name, data in files.items():
                (folder / name).parent.mkdir(parents=True, exist_ok=True)
                (folder / name).write_bytes(data)
            archive_path = out / language / f"{assignment_id}.zip"
            with zipfile.ZipFile(archive_path, "w", zipfile.ZIP_DEFLATED) as archive:
                for name, data in sorted(files.items()):
                    archive.writestr(zipfile.ZipInfo(f"{assignment_id}/{name}", _DATE), data)
            zips.append(archive_path)
    for (language, assignment_id), data in answer_files.items():
        folder = out / language / ANSWERS_FOLDER
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{assignment_id}.ipynb").write_bytes(data)
        rules = student_notebook_folder(language, assignment_id) / grading_rules.FILE_NAME  # its last cell links to it
        shutil.copyfile(rules, folder / grading_rules.FILE_NAME)
        if location is None:  # the notebook installs the wheel from beside itself, as the bundles' do
            shutil.copyfile(DIST_DIR / self_checks_cell.wheel_name(), folder / self_checks_cell.wheel_name())
    return zips


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m autograder.notebooks.release")
    parser.add_argument("--checks-package", metavar="LOCATION",
                        help="where the notebooks install the student package from: a URL or a package name"
                             " (default: the wheel, put beside each notebook)")
    parser.add_argument("--service", metavar="URL",
                        help="the submission service's address, where the notebooks' submit() sends them"
                             " (default: none; students then set KIT_SERVICE_URL)")
    parser.add_argument("--answers", action="store_true",
                        help="also write each notebook with its reference code and model answers, for students once"
                             f" the assignment is closed, into <out>/<language>/{ANSWERS_FOLDER}/ (not in the bundles)")
    parser.add_argument("--out", type=Path, default=RELEASE_DIR, help=f"default: {RELEASE_DIR}")
    args = parser.parse_args(argv)
    try:
        zips = write_release(args.out, args.checks_package, args.service, args.answers)
    except ReleaseError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(f"wrote {len(zips)} bundles (a folder and a zip per language and notebook) into {args.out}")
    if args.answers:
        print(f"and the answers of every notebook into {args.out}/<language>/{ANSWERS_FOLDER}/: hand them out only"
              " once the assignment is closed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
