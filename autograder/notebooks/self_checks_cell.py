"""The notebooks' setup cell: installs the student package where it is missing and binds its
helpers in the notebook's language (``check``, ``hint``, ``predict``, ``reveal``, ``needs`` and
``tr``, see ``autograder.student.notebook``). Everything a notebook used to define here lives in
the package now; the cell keeps the install and a three-line stand-in for when the package is
absent, so that a notebook still runs top to bottom on Colab, JupyterHub or VS Code without it
(the checks are then off, and a demo that fails is skipped).

Every notebook (masters, released notebooks, translations and release bundles) holds this
cell under the id ``self-checks``, as its first code cell; ``make assignments`` writes it, with
the package location the instructor chose (``--checks-package``: a wheel file beside the
notebook, a URL or a package name). It is the same code everywhere but for the location, the
language and the words of its comments and message. The stubs of the answer cells are worded
here too (``stub``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping

from autograder.course.paths import LOCALES_DIR, STUDENT_PACKAGE_DIR
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
    "intro": "# The course's helpers, from a small package (attention-kit-student) installed here where it is missing.",
    "location": "from your instructor: a file beside this notebook, a URL or a package name",
    "off": ("Self-checks are off: install them with  pip install {CHECKS_PACKAGE}  (ask your instructor"
            " where it is), then restart the kernel."),
    "fallback": "without the package: no checks, hints or predictions, and a demo that fails is skipped",
    # The stub of every answer cell: ``raise NotImplementedError("<stage>: ...")``.
    "stub": "replace this line with your code",
}

_TEMPLATE = '''{intro}
# {location_comment}
CHECKS_PACKAGE = {location!r}
import contextlib, importlib.util, subprocess, sys
if importlib.util.find_spec("{package}") is None:
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", CHECKS_PACKAGE], capture_output=True)
    importlib.invalidate_caches()
try:
    from {package} import notebook_helpers
    check, hint, predict, reveal, needs, tr = notebook_helpers({language!r})
except ImportError:  # {fallback}
    print({off})
    check = hint = predict = reveal = lambda *args, **kwargs: None
    needs, tr = (lambda stage: contextlib.suppress(Exception)), str'''


def _pieces(text: str, width: int = 80) -> list[str]:
    """``text`` cut into pieces about ``width`` columns wide (a CJK character takes two), at a
    space or next to a non-ASCII character; a ``{field}`` is never cut."""
    pieces, piece, columns = [], "", 0
    for atom in re.findall(r"\{[^}]*\}|.", text, flags=re.DOTALL):
        piece += atom
        columns += sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in atom)
        if columns >= width and (atom == " " or not atom.isascii()):
            pieces.append(piece)
            piece, columns = "", 0
    return [*pieces, piece] if piece else pieces


def _f_string(text: str, indent: int) -> str:
    """``text`` as string literals that Python joins, one piece per line: f-strings where it has
    ``{fields}``."""
    prefix = "f" if "{" in text else ""
    return ("\n" + " " * indent).join(f"{prefix}{piece!r}" for piece in _pieces(text))


def words(language: str) -> Mapping[str, str]:
    """The cell's words in ``language`` (English where a catalog lacks one)."""
    return languages.messages(language, "self_checks_cell", WORDS, LOCALES_DIR)


def stub(language: str, stage: str) -> str:
    """The line that stands for ``stage``'s answer in a student notebook, worded in ``language``."""
    return f'raise NotImplementedError("{stage}: {words(language)["stub"]}")'


def self_checks_source(language: str, location: str | None = None) -> str:
    """The cell's code for a notebook in ``language``, installing the package from ``location``
    (by default the wheel's file name: a wheel beside the notebook)."""
    said = words(language)
    return _TEMPLATE.format(intro=said["intro"], location=location or wheel_name(),
                            location_comment=said["location"], package=PACKAGE_IMPORT_NAME,
                            language=language, fallback=said["fallback"], off=_f_string(said["off"], 10))
