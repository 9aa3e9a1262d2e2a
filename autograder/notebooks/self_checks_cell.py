"""The notebooks' setup cell: installs the student package where it is missing and imports its
helpers in the notebook's language (``check``, ``hint``, ``predict``, ``reveal`` and ``submit``,
from ``attention_kit_student.<language>``, see ``autograder.student.notebook``; the import also
makes the demo cells wait for their stages). Six lines of code, hidden until opened (the installing
is plumbing, not the course): everything else lives in the package. Without the package (no wheel
beside the notebook, no network) the cell stops at its import, and the comment just above it,
which the traceback shows, says how to install it: a notebook without its checks would teach on
silently.

Every notebook (masters, released notebooks, translations and release bundles) holds this
cell under the id ``self-checks``, as its first code cell; ``make assignments`` writes it, with
the package location the instructor chose (``--checks-package``: a wheel file beside the
notebook, a URL or a package name). It is the same code everywhere but for the location, the
language and the words of its comments. The stubs of the answer cells are worded here too
(``stub``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping

from autograder.paths import LOCALES_DIR, STUDENT_PACKAGE_DIR
from autograder.student import language as languages
from autograder.worker.compat import tomllib

CELL_ID = "self-checks"
STUDENT_PROJECT = STUDENT_PACKAGE_DIR / "pyproject.toml"
PACKAGE_IMPORT_NAME = "attention_kit_student"


def student_package_version() -> str:
    """The student package's version, from its own pyproject.toml."""
    return tomllib.loads(STUDENT_PROJECT.read_text(encoding="utf-8"))["project"]["version"]


def wheel_name() -> str:
    """The file name of the student wheel that ``make student-package`` builds."""
    return f"{PACKAGE_IMPORT_NAME}-{student_package_version()}-py3-none-any.whl"


# The words of the cell, in English; translations in autograder/locales/<language>/self_checks_cell.json.
WORDS: dict[str, str] = {
    # The cell's title: a comment in Jupyter and VS Code, where the cell's code starts hidden; the
    # title Colab shows in place of the code (a form, by the cell's metadata).
    "intro": "The course's helpers (check, hint, predict): run this cell first",
    "location": "from your instructor: a file beside this notebook, a URL or a package name",
    "missing": ("If this cell stops at No module named 'attention_kit_student', install the package with"
                "  pip install {CHECKS_PACKAGE}  (ask your instructor where it is), then restart the kernel."),
    # The stub of every answer cell: ``raise NotImplementedError("<stage>: ...")``.
    "stub": "replace this line with your code",
}

_TEMPLATE = '''#@title {intro}
# {location_comment}
CHECKS_PACKAGE = {location!r}
import importlib.util, subprocess, sys
if importlib.util.find_spec("{package}") is None:
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", CHECKS_PACKAGE])
    importlib.invalidate_caches()
{missing}
from {package}.{language} import check, hint, predict, reveal, submit'''


def _pieces(text: str, width: int = 80) -> list[str]:
    """``text`` cut into pieces at most ``width`` columns wide (a CJK character takes two), between
    words or next to a non-ASCII character. A command set off by two spaces on each side, as the
    texts write one to copy, and a single word longer than ``width``, stay whole."""
    pieces, piece = [], ""
    for token in re.findall(r"  \S.*?\S  |\s+|[!-~]+|.", text):
        if columns(piece + token) > width and piece.strip():
            pieces.append(piece)
            piece = token.lstrip()
        else:
            piece += token
    return [*pieces, piece] if piece.strip() else pieces


def columns(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def _comment(text: str) -> str:
    """``text`` as comment lines about 80 columns wide."""
    return "\n".join("# " + piece.strip() for piece in _pieces(text))


def words(language: str) -> Mapping[str, str]:
    """The cell's words in ``language`` (English where a catalog lacks one)."""
    return languages.messages(language, "self_checks_cell", WORDS, LOCALES_DIR)


def stub(language: str, stage: str) -> str:
    """The line that stands for ``stage``'s answer in a student notebook, worded in ``language``."""
    return f'raise NotImplementedError("{stage}: {words(language)["stub"]}")'


# The cell's metadata: its code starts hidden in JupyterLab, Notebook 7 and VS Code, and Colab shows
# its title line in place of the code; a student opens it with one click.
HIDDEN_CODE = {"jupyter": {"source_hidden": True}, "cellView": "form"}


def self_checks_source(language: str, location: str | None = None) -> str:
    """The cell's code for a notebook in ``language``, installing the package from ``location``
    (by default the wheel's file name: a wheel beside the notebook)."""
    said, location = words(language), location or wheel_name()
    return _TEMPLATE.format(intro=said["intro"], location=location, location_comment=said["location"],
                            package=PACKAGE_IMPORT_NAME, language=language,
                            missing=_comment(said["missing"].format(CHECKS_PACKAGE=location)))
