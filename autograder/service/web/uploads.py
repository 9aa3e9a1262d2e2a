"""Checking an upload before anything is stored: size, zip (otter's export) and zip bombs, that
it is a notebook, and that it is this assignment's. Read as JSON and ``ast`` only, never run.

A refusal names the file as the student uploaded it (never the name the assignment expects), and
when the file is something else than a notebook it says what, from its content (an image, a PDF,
a web page, a Python file...): a name may say anything, the first bytes do not lie."""

from __future__ import annotations

import ast
import io
import json
import re
import tempfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from autograder.reading.notebook import EmptyNotebook, NotebookError, OtherAssignmentNotebook, extract_notebook_file
from autograder.student.curriculum import STAGES_BY_ASSIGNMENT

MAX_ZIP_MEMBERS = 200


@dataclass(frozen=True)
class Refusal(Exception):
    """Why an upload was refused: a message key of the pages' text, and its fields."""

    key: str
    fields: dict = field(default_factory=dict)


@dataclass(frozen=True)
class CheckedNotebook:
    filename: str
    content: bytes
    language: str


# The first bytes of the files students upload instead of their notebook, and what they are.
_SIGNATURES = (
    (b"\x89PNG\r\n\x1a\n", "image"), (b"\xff\xd8\xff", "image"), (b"GIF87a", "image"), (b"GIF89a", "image"),
    (b"%PDF-", "pdf"), (b"\x1f\x8b", "archive"), (b"Rar!\x1a\x07", "archive"), (b"7z\xbc\xaf\x27\x1c", "archive"),
)
_IMAGE_BRANDS = (b"heic", b"heix", b"mif1", b"avif")  # ISO media (an iPhone's photos and screenshots)
_PYTHON_LINE = re.compile(r"^[ \t]*(?:def \w+\(|class \w+|import \w|from [\w.]+ import |# %%)", re.MULTILINE)
# Read only this much of a text to tell what it is.
_SNIFFED_CHARS = 20_000


def shown_name(filename: str, assignment_id: str) -> str:
    """The uploaded file's own name as a refusal names it (its last part, cut short)."""
    return PurePosixPath(filename.replace("\\", "/")).name[:120] or f"{assignment_id}.ipynb"


def kind_of(data: bytes) -> str:
    """What an upload is, from its content: ``zip``, ``image``, ``pdf``, ``archive``, ``html``,
    ``python``, ``text``, ``json`` (a notebook's shape, to be read further) or ``binary``."""
    if data[:4] in (b"PK\x03\x04", b"PK\x05\x06"):  # a zip, or an empty one
        return "zip"
    for signature, kind in _SIGNATURES:
        if data.startswith(signature):
            return kind
    if (data[:4] == b"RIFF" and data[8:12] == b"WEBP") or (data[4:8] == b"ftyp" and data[8:12] in _IMAGE_BRANDS):
        return "image"
    try:
        text = data[:_SNIFFED_CHARS * 4].decode("utf-8-sig")
    except UnicodeDecodeError as error:
        if error.start < _SNIFFED_CHARS * 4 - 4:  # not a character cut in two at the end of what was read
            return "binary"
        text = data[:error.start].decode("utf-8-sig")
    if "\x00" in text:
        return "binary"
    head = text.lstrip()[:_SNIFFED_CHARS]
    if head.startswith(("{", "[")):
        return "json"
    if re.match(r"<(?:!doctype html|html|\?xml[^>]*>\s*<!doctype html)", head, re.IGNORECASE):
        return "html"
    if _PYTHON_LINE.search(head) or _is_python(text):
        return "python"
    return "text"


def _is_python(text: str) -> bool:
    """Python that does something (an import, a definition, an assignment), not a sentence that
    happens to parse."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return any(isinstance(node, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef, ast.Assign, ast.Call))
               for node in ast.walk(tree))


def _from_zip(data: bytes, assignment_id: str, max_unzipped: int, shown: str) -> tuple[str, bytes]:
    """The notebook inside an otter export zip: ``<assignment_id>.ipynb``, else the only one."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = archive.infolist()
    except (zipfile.BadZipFile, ValueError, OSError):
        raise Refusal("damaged_zip", {"filename": shown}) from None
    if len(members) > MAX_ZIP_MEMBERS or sum(member.file_size for member in members) > max_unzipped:
        raise Refusal("zip_bomb", {"filename": shown})
    notebooks = [member for member in members if not member.is_dir() and member.filename.endswith(".ipynb")
                 and not PurePosixPath(member.filename).name.startswith(".")
                 and "__MACOSX" not in member.filename]
    chosen = [member for member in notebooks if PurePosixPath(member.filename).name == f"{assignment_id}.ipynb"]
    chosen = chosen or (notebooks if len(notebooks) == 1 else [])
    if not chosen:
        raise Refusal("zip_without_notebook", {"filename": shown, "expected": f"{assignment_id}.ipynb"})
    member = chosen[0]
    # The declared sizes may lie: read at most the cap, and refuse what goes past it.
    try:
        with archive.open(member) as stream:
            content = stream.read(max_unzipped + 1)
    except (zipfile.BadZipFile, ValueError, OSError, EOFError, NotImplementedError, RuntimeError):
        raise Refusal("damaged_zip", {"filename": shown}) from None
    if len(content) > max_unzipped:
        raise Refusal("zip_bomb", {"filename": shown})
    return PurePosixPath(member.filename).name, content


def _refuse_what_is_no_notebook(data: bytes, shown: str) -> None:
    """A Refusal that says what the file is, when its content shows it is no notebook."""
    kind = kind_of(data)
    if kind in ("image", "pdf", "archive", "html", "python", "text"):
        raise Refusal(f"not_a_notebook_{kind}", {"filename": shown})
    if kind != "json":
        raise Refusal("not_a_notebook", {"filename": shown})
    try:
        document = json.loads(data)
    except (ValueError, RecursionError):  # cut short, or edited by hand: the start of a notebook, but broken
        raise Refusal("not_a_notebook_damaged", {"filename": shown}) from None
    if not isinstance(document, dict) or not isinstance(document.get("cells"), list):
        raise Refusal("not_a_notebook_json", {"filename": shown})


def check_upload(filename: str, data: bytes, assignment_id: str, max_bytes: int, max_unzipped: int) -> CheckedNotebook:
    """The notebook to store, or a Refusal that says what to do."""
    if len(data) > max_bytes:
        raise Refusal("too_large", {"limit_mb": f"{max_bytes / 2**20:g}"})
    if not data.strip():
        raise Refusal("empty_file")
    shown = shown_name(filename, assignment_id)
    if kind_of(data) == "zip":
        filename, data = _from_zip(data, assignment_id, max_unzipped, shown)
        if len(data) > max_bytes:
            raise Refusal("too_large", {"limit_mb": f"{max_bytes / 2**20:g}"})
    _refuse_what_is_no_notebook(data, shown)
    with tempfile.TemporaryDirectory(prefix="attention-kit-upload-") as folder:
        path = Path(folder) / f"{assignment_id}.ipynb"
        path.write_bytes(data)
        try:
            code = extract_notebook_file(path, STAGES_BY_ASSIGNMENT[assignment_id])
        except OtherAssignmentNotebook as error:
            raise Refusal("wrong_assignment", {"filename": shown, "other": error.looks_like,
                                               "expected": assignment_id}) from None
        except EmptyNotebook:
            raise Refusal("empty_notebook", {"filename": shown}) from None
        except NotebookError as error:  # what the checks above did not foresee: in the reader's words
            raise Refusal("not_a_notebook_detail", {"filename": shown, "detail": str(error)}) from None
        except Exception:  # noqa: BLE001 - whatever a hostile file does, it is refused, never stored
            raise Refusal("not_a_notebook", {"filename": shown}) from None
    return CheckedNotebook(PurePosixPath(filename or f"{assignment_id}.ipynb").name[:255], data, code.language)
