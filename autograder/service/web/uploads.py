"""Checking an upload before anything is stored: size, zip (otter's export) and zip bombs, that
it is a notebook, and that it is this assignment's. Read as JSON and ``ast`` only, never run."""

from __future__ import annotations

import io
import tempfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from autograder.reading.notebook import NotebookError, OtherAssignmentNotebook, extract_notebook_file
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


def _from_zip(data: bytes, assignment_id: str, max_unzipped: int) -> tuple[str, bytes]:
    """The notebook inside an otter export zip: ``<assignment_id>.ipynb``, else the only one."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = archive.infolist()
    except (zipfile.BadZipFile, ValueError, OSError):
        raise Refusal("not_a_notebook") from None
    if len(members) > MAX_ZIP_MEMBERS or sum(member.file_size for member in members) > max_unzipped:
        raise Refusal("zip_bomb")
    notebooks = [member for member in members if not member.is_dir() and member.filename.endswith(".ipynb")
                 and not PurePosixPath(member.filename).name.startswith(".")
                 and "__MACOSX" not in member.filename]
    chosen = [member for member in notebooks if PurePosixPath(member.filename).name == f"{assignment_id}.ipynb"]
    chosen = chosen or (notebooks if len(notebooks) == 1 else [])
    if not chosen:
        raise Refusal("zip_without_notebook", {"expected": f"{assignment_id}.ipynb"})
    member = chosen[0]
    # The declared sizes may lie: read at most the cap, and refuse what goes past it.
    with archive.open(member) as stream:
        content = stream.read(max_unzipped + 1)
    if len(content) > max_unzipped:
        raise Refusal("zip_bomb")
    return PurePosixPath(member.filename).name, content


def check_upload(filename: str, data: bytes, assignment_id: str, max_bytes: int, max_unzipped: int) -> CheckedNotebook:
    """The notebook to store, or a Refusal that says what to do."""
    if len(data) > max_bytes:
        raise Refusal("too_large", {"limit_mb": f"{max_bytes / 2**20:g}"})
    if not data.strip():
        raise Refusal("empty_file")
    if data[:4] == b"PK\x03\x04":
        filename, data = _from_zip(data, assignment_id, max_unzipped)
        if len(data) > max_bytes:
            raise Refusal("too_large", {"limit_mb": f"{max_bytes / 2**20:g}"})
    with tempfile.TemporaryDirectory(prefix="attention-kit-upload-") as folder:
        path = Path(folder) / f"{assignment_id}.ipynb"
        path.write_bytes(data)
        try:
            code = extract_notebook_file(path, STAGES_BY_ASSIGNMENT[assignment_id])
        except OtherAssignmentNotebook as error:
            raise Refusal("wrong_assignment", {"detail": str(error)}) from None
        except NotebookError as error:
            raise Refusal("not_a_notebook_detail", {"detail": str(error)}) from None
        except Exception:  # noqa: BLE001 - whatever a hostile file does, it is refused, never stored
            raise Refusal("not_a_notebook") from None
    return CheckedNotebook(PurePosixPath(filename or f"{assignment_id}.ipynb").name[:255], data, code.language)
