"""The notebooks' self-checks cell: installs the student package where it is missing, binds
``check`` in the notebook's language, and defines ``needs``, which holds a demo back until its
stage works.

Every notebook (masters, released notebooks, translations and release bundles) holds this
cell under the id ``self-checks``; ``make assignments`` writes it, with the package location
the instructor chose (``--checks-package``: a wheel file beside the notebook, a URL or a
package name). It is the same code everywhere but for the location and the words, so a
notebook runs top to bottom on Colab, JupyterHub or VS Code with or without the package:
``check`` then says the checks are off, and a demo whose stage is unfinished prints one line
instead of stopping "Run All".
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
    "intro": ("# The self-checks, check(\"<stage>\"), come in a small package (attention-kit-student), installed\n"
              "# here when it is missing. Without it the notebook still runs; only the checks are off."),
    "location": "from your instructor: a file beside this notebook, a URL or a package name",
    "off": ("Self-checks are off: install them with  pip install {CHECKS_PACKAGE}  (ask your instructor"
            " where it is), then restart the kernel. Everything else in this notebook works without them."),
    "no_check": "(no self-check of {stage}: the self-checks are not installed)",
    "needs_doc": "Run a demo once `stage` works; until then print one line, so that Run All goes on.",
    "finish_first": "⏭ Finish `{unfinished}` first: this demo runs once it works.",
    "own_code": "a name missing inside your own code: fix it there",
    "needs_name": "⏭ This demo needs `{error.name}`, which a demo above makes: finish the stages above first.",
}

_TEMPLATE = '''{intro}
import contextlib
import importlib.util
import subprocess
import sys

# {location_comment}
CHECKS_PACKAGE = {location!r}

if importlib.util.find_spec("{package}") is None:
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", CHECKS_PACKAGE], capture_output=True)
    importlib.invalidate_caches()
try:
    from {package} import self_checks

    check = self_checks({language!r})
except ImportError:
    print({off})

    def check(stage):
        print({no_check})


@contextlib.contextmanager
def needs(stage):
    """{needs_doc}
    """
    try:
        yield
    except NotImplementedError as error:
        named = str(error).split(":")[0]
        unfinished = named if named.isidentifier() else stage
        print({finish_first})
    except NameError as error:
        where = error.__traceback__
        while where.tb_next is not None:
            where = where.tb_next
        if where.tb_frame.f_code.co_name != "<module>":
            raise  # {own_code}
        print({needs_name})'''


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
    """``text`` as f-string literals that Python joins, one piece per line."""
    return ("\n" + " " * indent).join(f"f{piece!r}" for piece in _pieces(text))


def words(language: str) -> Mapping[str, str]:
    """The cell's words in ``language`` (English where a catalog lacks one)."""
    return languages.messages(language, "self_checks_cell", WORDS, LOCALES_DIR)


def self_checks_source(language: str, location: str | None = None) -> str:
    """The cell's code for a notebook in ``language``, installing the package from ``location``
    (by default the wheel's file name: a wheel beside the notebook)."""
    said = words(language)
    return _TEMPLATE.format(intro=said["intro"], location=location or wheel_name(),
                            location_comment=said["location"], package=PACKAGE_IMPORT_NAME, language=language,
                            off=_f_string(said["off"], 10), no_check=_f_string(said["no_check"], 14),
                            needs_doc="\n    ".join(piece.rstrip() for piece in _pieces(said["needs_doc"])),
                            finish_first=_f_string(said["finish_first"], 14),
                            own_code=said["own_code"], needs_name=_f_string(said["needs_name"], 14))
