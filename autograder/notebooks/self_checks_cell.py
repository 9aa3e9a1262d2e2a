"""The notebooks' setup cell: installs what a notebook needs besides torch where it is missing
(matplotlib for the figures, the student package for the self-checks), binds ``check`` and
``hint`` in the notebook's language, and defines ``needs``, which holds a demo back until its
stage works and keeps "Run All" going when a stage is wrong.

Every notebook (masters, released notebooks, translations and release bundles) holds this
cell under the id ``self-checks``, as its first code cell; ``make assignments`` writes it, with
the package location the instructor chose (``--checks-package``: a wheel file beside the
notebook, a URL or a package name). It is the same code everywhere but for the location and the
words, so a notebook runs top to bottom on Colab, JupyterHub or VS Code with or without the
package: ``check`` then says the checks are off, a demo whose stage is unfinished prints one
line, and a demo that a wrong answer breaks says so in one line instead of stopping "Run All".
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
    # torch is not installed here: it is large, has builds per platform, and Colab and course hubs have it.
    "intro": ("# What this notebook needs besides torch, installed here when it is missing: matplotlib for\n"
              "# the figures, and the self-checks, check(\"<stage>\") and hint(\"<stage>\"), which come in a\n"
              "# small package (attention-kit-student). Without it the notebook still runs; only the checks\n"
              "# are off."),
    "location": "from your instructor: a file beside this notebook, a URL or a package name",
    "no_matplotlib": ("The figures need matplotlib, which could not be installed here: run  pip install"
                      " matplotlib  in a terminal, then restart the kernel."),
    "off": ("Self-checks are off: install them with  pip install {CHECKS_PACKAGE}  (ask your instructor"
            " where it is), then restart the kernel. Everything else in this notebook works without them."),
    "no_check": "(no self-check of {stage}: the self-checks are not installed)",
    "no_hint": "(no hint for {stage}: the self-checks are not installed)",
    "needs_doc": "Run a demo once `stage` works; until then print one line, so that Run All goes on.",
    "finish_first": "⏭ Finish `{unfinished}` first: this demo runs once it works.",
    "wrong_answer": "a wrong answer must not stop Run All either",
    "needs_name": "⏭ This demo needs `{error.name}`, which a demo above makes: finish the stages above first.",
    "stopped": ("⚠ This demo stopped at {reason}. It runs your `{stage}` (or a stage it uses):"
                " check(\"{stage}\") says what it finds."),
}

_TEMPLATE = '''{intro}
import contextlib
import importlib.util
import subprocess
import sys

# {location_comment}
CHECKS_PACKAGE = {location!r}

for module, requirement in (("matplotlib", "matplotlib"), ("{package}", CHECKS_PACKAGE)):
    if importlib.util.find_spec(module) is None:
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", requirement], capture_output=True)
        importlib.invalidate_caches()
if importlib.util.find_spec("matplotlib") is None:
    print({no_matplotlib})
try:
    from {package} import self_checks

    check = self_checks({language!r})
    hint = check.hint
except ImportError:
    print({off})

    def check(stage):
        print({no_check})

    def hint(stage):
        print({no_hint})


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
    except Exception as error:  # {wrong_answer}
        where = error.__traceback__
        while where.tb_next is not None:
            where = where.tb_next
        if isinstance(error, NameError) and where.tb_frame.f_code.co_name == "<module>":
            print({needs_name})
        else:
            reason = f"{{type(error).__name__}}: {{error}}".splitlines()[0][:300]
            print({stopped})'''


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


def self_checks_source(language: str, location: str | None = None) -> str:
    """The cell's code for a notebook in ``language``, installing the package from ``location``
    (by default the wheel's file name: a wheel beside the notebook)."""
    said = words(language)
    return _TEMPLATE.format(intro=said["intro"], location=location or wheel_name(),
                            location_comment=said["location"], package=PACKAGE_IMPORT_NAME,
                            language=language, no_matplotlib=_f_string(said["no_matplotlib"], 10),
                            off=_f_string(said["off"], 10), no_check=_f_string(said["no_check"], 14),
                            no_hint=_f_string(said["no_hint"], 14),
                            needs_doc="\n    ".join(piece.rstrip() for piece in _pieces(said["needs_doc"])),
                            finish_first=_f_string(said["finish_first"], 14), wrong_answer=said["wrong_answer"],
                            needs_name=_f_string(said["needs_name"], 18), stopped=_f_string(said["stopped"], 18))
