"""Where the kit's folders are, from this file's location (never the working directory)."""

from pathlib import Path

KIT_ROOT = Path(__file__).resolve().parents[1]
SOLUTIONS_DIR = KIT_ROOT / "solutions"
ASSIGNMENTS_DIR = KIT_ROOT / "assignments"
SOURCE_DATA_DIR = KIT_ROOT / "source_data"
HIDDEN_TESTS_DIR = KIT_ROOT / "autograder" / "hidden_tests"
STUDENT_PACKAGE_DIR = KIT_ROOT / "autograder" / "student"  # the student package's sources and build spec
DIST_DIR = KIT_ROOT / "dist"  # what `make student-package` and `make release` write
# The grader's translations (notebook markdown, findings, the feedback page); the student
# side keeps its own in autograder/student/locales/.
LOCALES_DIR = KIT_ROOT / "autograder" / "locales"


def solution_notebook(assignment_id: str) -> Path:
    return SOLUTIONS_DIR / assignment_id / f"{assignment_id}.ipynb"


def student_notebook(assignment_id: str) -> Path:
    return ASSIGNMENTS_DIR / assignment_id / f"{assignment_id}.ipynb"
