"""Extract the graded definitions from a notebook, without running it.

Only imports, ``def``/``class`` blocks and simple constants are kept, so that a slow or
crashing demo cell costs a student nothing. This module only reads and parses: it never
executes the code it extracts, so the trusted grader may use it on hostile notebooks.

The grading contract, as every notebook states it (given the notebook's graded names):
imports come from any cell; definitions and constants come from the answer cells (nbgrader's
``solution`` cells, whose ``grade_id`` names a stage) and from the read-only cells given with
the notebook (nbgrader's ``locked`` cells, such as notebook 4's ``CausalAttention``). A
definition of a graded name outside its answer cell is ignored, and a note says so. Where a
stage's answer cell is gone, its definition is taken from any cell; where every marker is gone
(cells copied into a new notebook), every cell counts as before; notes say that too.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path

from autograder.findings.finding import Finding, finding
from autograder.reading.learning_records import LearningRecords, learning_records
from autograder.student.curriculum import STAGES_BY_ASSIGNMENT
from autograder.student.language import DEFAULT_LANGUAGE, MAX_NOTEBOOK_BYTES, notebook_language
from autograder.student.reading.loaded import is_loaded

_LINE_BREAKS = re.compile(r"\r\n|\r|\n")

# A code cell longer than this is not read: no answer needs it, and parsing it costs the class.
MAX_CELL_CHARS = 200_000
# Loading problems kept per notebook (the rest are counted).
MAX_LOAD_PROBLEMS = 20

# Packages a notebook imports for the student's own use, never for a graded definition: otter
# (docs/platforms/otter.md) and the self-check package. They are not loaded for grading, so a
# grading machine without them reports nothing.
STUDENT_SIDE_PACKAGES = frozenset({"otter", "attention_kit_student"})
# A cell is named by its first line of code, cut to this many characters.
FIRST_LINE_CHARS = 60
_TOP_LEVEL_DEFINITION = re.compile(r"^(?:async\s+def|def|class)\s+(\w+)", re.MULTILINE)


class NotebookError(Exception):
    """The file is not a notebook the grader can read; the message says why in plain words, and
    what to do. ``row_kind`` is the status its row gets in grades.csv."""

    row_kind = "unreadable"


class EmptyNotebook(NotebookError):
    """A notebook without a line of code: nothing was handed in."""

    row_kind = "missing"


class OtherAssignmentNotebook(NotebookError):
    """Another assignment's notebook saved under this assignment's name; ``looks_like`` is that
    assignment (the service words its own refusal from it, in the reader's language)."""

    row_kind = "misnamed"

    def __init__(self, message: str, looks_like: str = "") -> None:
        super().__init__(message)
        self.looks_like = looks_like


# What a student can do with a file the grader cannot read (never the parser's own words).
_DOWNLOAD_AGAIN = ("download your notebook again from Jupyter (File > Download), or copy your answers into a fresh"
                   " copy of the assignment's notebook, and submit that")


@dataclass
class CodeBlock:
    """One top-level definition to execute, with where it came from for error messages."""

    source: str
    cell_index: int
    line: int
    names: list[str]


@dataclass
class ExtractedCode:
    """The definitions of a notebook, the problems found while reading it, and notes on how it
    was read (the grading contract at work)."""

    blocks: list[CodeBlock] = field(default_factory=list)
    problems: list[Finding] = field(default_factory=list)
    language: str = DEFAULT_LANGUAGE  # the notebook's language (its metadata), for the feedback page
    notes: list[Finding] = field(default_factory=list)
    records: LearningRecords = field(default_factory=LearningRecords)  # hint tiers opened, predictions made
    # Each code cell (by its index in the notebook) as the student sees it: a cell.* phrase.
    places: dict[int, Finding] = field(default_factory=dict)
    # Names whose definitions were lost with their cell (a syntax error, say), and that problem.
    lost: dict[str, Finding] = field(default_factory=dict)

    def place(self, cell_index: int) -> Finding | str:
        """Cell ``cell_index`` as the student sees it (its number when it is not a code cell)."""
        return self.places.get(cell_index, str(cell_index + 1))


@dataclass
class _GradedCells:
    """Which cells may define what, under the grading contract (see the module's docstring)."""

    graded_names: Collection[str]
    answer_cells: dict[str, set[int]]  # graded name -> the cells whose grade_id is that name
    given_cells: set[int]  # read-only cells given with the notebook
    every_cell: bool  # no marker survives: every cell counts

    @classmethod
    def of(cls, cells: list, graded_names: Collection[str] | None) -> _GradedCells:
        answers: dict[str, set[int]] = {}
        given = set()
        for index, cell in enumerate(cells):
            nbgrader = _nbgrader_metadata(cell)
            if nbgrader is None:
                continue
            if nbgrader.get("solution") is True and nbgrader.get("grade_id") in (graded_names or ()):
                answers.setdefault(nbgrader["grade_id"], set()).add(index)
            elif nbgrader.get("locked") is True:
                given.add(index)
        return cls(graded_names or (), answers, given, graded_names is None or not answers)

    def keeps(self, index: int, names: list[str]) -> tuple[bool, str | None]:
        """Whether a definition of ``names`` in cell ``index`` counts; the graded name it was
        ignored for, when it does not."""
        if self.every_cell:
            return True, None
        for name in names:
            if name in self.graded_names and name in self.answer_cells and index not in self.answer_cells[name]:
                return False, name
        in_answer = any(index in cells for cells in self.answer_cells.values())
        return in_answer or index in self.given_cells or bool(self.missing_answer_cells(names)), None

    def missing_answer_cells(self, names: list[str]) -> set[str]:
        """The graded ones among ``names`` whose answer cell is gone (none when every cell counts)."""
        if self.every_cell:
            return set()
        return {name for name in names if name in self.graded_names and name not in self.answer_cells}


def _nbgrader_metadata(cell: object) -> dict | None:
    """A cell's nbgrader metadata (its markers), if it has any."""
    metadata = cell.get("metadata") if isinstance(cell, dict) else None
    nbgrader = metadata.get("nbgrader") if isinstance(metadata, dict) else None
    return nbgrader if isinstance(nbgrader, dict) else None


def read_notebook_json(path: Path) -> dict:
    """Read a notebook file as JSON, with errors an instructor can act on."""
    if path.is_symlink():
        raise NotebookError(f"{path.name} is a symbolic link; submit the notebook file itself")
    if not path.exists():
        raise NotebookError(f"{path.name} was not found")
    if not path.is_file():
        raise NotebookError(f"{path.name} is not a regular file")
    size = path.stat().st_size
    if size == 0:
        raise NotebookError(f"{path.name} is an empty file (0 bytes), not a notebook: save your notebook in Jupyter"
                            " (File > Save) and submit it again")
    if size > MAX_NOTEBOOK_BYTES:
        raise NotebookError(
            f"{path.name} is {size / 2**20:.0f} MiB, over the {MAX_NOTEBOOK_BYTES // 2**20} MiB limit;"
            " clear the outputs (Kernel > Restart & Clear Output) and submit again"
        )
    try:
        notebook = json.loads(path.read_bytes())
    except (ValueError, RecursionError):  # not JSON, or JSON no notebook holds (nested too deep, huge numbers)
        raise NotebookError(f"{path.name} is damaged: it cannot be read as a notebook; {_DOWNLOAD_AGAIN}") from None
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
        raise NotebookError(f"{path.name} is not a Jupyter notebook (it has no list of cells); {_DOWNLOAD_AGAIN}")
    return notebook


def cell_source(cell: dict) -> str:
    """The text of a cell, whether stored as one string or a list of lines."""
    source = cell.get("source", "")
    if isinstance(source, list):
        return "".join(part for part in source if isinstance(part, str))
    return source if isinstance(source, str) else ""


def _blank_ipython_syntax(source: str) -> str:
    """Blank out magics (%, %%) and shell escapes (!): they are demo work, never definitions."""
    lines = source.splitlines()
    if lines and lines[0].lstrip().startswith("%%"):
        return ""  # a cell magic makes the whole cell non-Python (%%bash, %%timeit...)
    kept = []
    for line in lines:
        stripped = line.lstrip()
        is_magic = stripped.startswith(("%", "!")) or (stripped.endswith("?") and " " not in stripped)
        kept.append("" if is_magic else line)
    return "\n".join(kept)


def _first_line(source: str) -> str:
    """The first line of code of a cell (comments and blank lines skipped), cut short."""
    for line in source.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            return stripped if len(stripped) <= FIRST_LINE_CHARS else stripped[: FIRST_LINE_CHARS - 1] + "…"
    return ""


def cell_places(cells: list, graded: _GradedCells) -> dict[int, Finding]:
    """Every code cell as the student sees it: Jupyter shows no cell numbers, so a cell is named by
    its first line and its place among the answer cells (or among the code cells)."""
    code_cells = [index for index, cell in enumerate(cells)
                  if isinstance(cell, dict) and cell.get("cell_type") == "code"]
    stage_of = {index: stage for stage, indices in graded.answer_cells.items() for index in indices}
    answers = [index for index in code_cells if index in stage_of]
    places = {}
    for position, index in enumerate(code_cells, 1):
        first_line = _first_line(cell_source(cells[index]))
        if index in stage_of:
            places[index] = finding("cell.answer", stage=stage_of[index], position=answers.index(index) + 1,
                                    count=len(answers), first_line=first_line)
        else:
            places[index] = finding("cell.code", position=position, count=len(code_cells), first_line=first_line)
    return places


def _student_side_import(node: ast.stmt) -> bool:
    """An import of a package the notebook uses for the student's own checks (otter, the self-checks)."""
    if isinstance(node, ast.Import):
        return all(alias.name.split(".")[0] in STUDENT_SIDE_PACKAGES for alias in node.names)
    return isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in STUDENT_SIDE_PACKAGES


def _defined_names(node: ast.stmt) -> list[str]:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return [(alias.asname or alias.name).split(".")[0] for alias in node.names]
    if isinstance(node, (ast.Assign, ast.AnnAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        return [target.id for target in targets if isinstance(target, ast.Name)]
    return []


def extract_definitions(notebook: dict, graded_names: Collection[str] | None = None) -> ExtractedCode:
    """The graded definitions, one block per top-level statement: from every code cell, or,
    given the notebook's ``graded_names``, under the grading contract (the module's docstring).

    A cell with a syntax error is skipped and reported; the other cells still count.
    """
    extracted = ExtractedCode(language=notebook_language(notebook),
                              records=learning_records(notebook, list(graded_names or ())))
    cells = notebook.get("cells", [])
    graded = _GradedCells.of(cells, graded_names)
    extracted.places = cell_places(cells, graded)
    if graded_names is not None and graded.every_cell:
        extracted.notes.append(finding("note.no_answer_cells"))
    noted: set[str] = set()  # graded names already noted as taken from outside an answer cell
    imported: set[str] = set()  # module names bound by the imports seen so far
    for index, cell in enumerate(cells):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        source = _blank_ipython_syntax(cell_source(cell))
        place = extracted.place(index)
        if len(source) > MAX_CELL_CHARS:
            _lose_cell(extracted, index, source, graded, finding(
                "cell_too_long", cell=place, characters=f"{len(source):,}", limit=f"{MAX_CELL_CHARS:,}"))
            continue
        try:
            tree = ast.parse(source)
        except (RecursionError, MemoryError):
            _lose_cell(extracted, index, source, graded, finding("cell_too_deep", cell=place))
            continue
        except (SyntaxError, ValueError) as error:
            line = getattr(error, "lineno", None) or "?"
            reason = error.msg if isinstance(error, SyntaxError) else str(error)
            _lose_cell(extracted, index, source, graded, finding("syntax_error", cell=place, line=line, reason=reason))
            continue
        lines = _LINE_BREAKS.split(source)  # the breaks ast counts (str.splitlines knows more)
        for node in tree.body:
            try:
                if not is_loaded(node, imported):
                    _computed_value_not_loaded(extracted, node, index, graded)
                    continue
            except RecursionError:  # an expression nested thousands deep is no simple constant
                continue
            names = _defined_names(node)
            if _student_side_import(node):
                continue
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                imported.update(names)
            else:
                kept, ignored_for = graded.keeps(index, names)
                if ignored_for is not None:
                    extracted.notes.append(finding("note.ignored_definition", name=ignored_for, cell=place))
                if not kept:
                    continue
                for name in sorted(graded.missing_answer_cells(names) - noted):
                    extracted.notes.append(finding("note.answer_cell_missing", name=name, cell=place))
                    noted.add(name)
            start = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
            end = node.end_lineno if node.end_lineno is not None else start  # ast.parse sets it on every statement
            if start == end:
                # One line may hold several statements (`import os; os.system(...)`): take ours only.
                # (Offsets count UTF-8 bytes; slicing the line read once keeps extraction linear.)
                line_bytes = lines[start - 1].encode()
                block_source = line_bytes[node.col_offset:node.end_col_offset].decode()
            else:
                last = lines[end - 1].encode()[: node.end_col_offset].decode()
                block_source = "\n".join([*lines[start - 1 : end - 1], last])
            extracted.blocks.append(CodeBlock(block_source, index, start, names))
    extracted.problems = _bounded(extracted.problems)
    extracted.notes = _bounded(extracted.notes)
    return extracted


def _computed_value_not_loaded(extracted: ExtractedCode, node: ast.stmt, index: int, graded: _GradedCells) -> None:
    """A name an answer cell sets to a value a call computes (``_FUTURE = torch.ones(...)``) is not
    loaded: where a stage reads it, its failure says so (``computed_not_loaded``), not that the name
    was made in another cell (blind28/058)."""
    names = _defined_names(node)
    if names and graded.keeps(index, names)[0]:
        for name in names:
            extracted.lost.setdefault(name, finding("computed_not_loaded", name=name, cell=extracted.place(index)))


def _lose_cell(extracted: ExtractedCode, index: int, source: str, graded: _GradedCells, problem: Finding) -> None:
    """A cell none of whose definitions load: its problem, and the names it would have defined
    (its top-level def and class lines, and the stage its answer cell is for), lost with it."""
    extracted.problems.append(problem)
    names = set(_TOP_LEVEL_DEFINITION.findall(source))
    names |= {stage for stage, indices in graded.answer_cells.items() if index in indices}
    for name in sorted(names):
        extracted.lost.setdefault(name, problem)


def _bounded(problems: list[Finding]) -> list[Finding]:
    """The first MAX_LOAD_PROBLEMS, and how many more: every results file and feedback page
    lists them, so thousands of broken cells must not make them that long."""
    if len(problems) <= MAX_LOAD_PROBLEMS:
        return problems
    return [*problems[:MAX_LOAD_PROBLEMS], finding("more_load_problems", count=len(problems) - MAX_LOAD_PROBLEMS)]


def extract_notebook_file(path: Path, graded_names: Collection[str] | None = None) -> ExtractedCode:
    """Read a notebook file and extract its definitions; ``graded_names`` as in
    ``extract_definitions``. Raises NotebookError when the file cannot be read and, given the
    graded names of an assignment, when it holds no code or is plainly another assignment's."""
    notebook = read_notebook_json(path)
    if graded_names is not None and not any(
            isinstance(cell, dict) and cell.get("cell_type") == "code" and cell_source(cell).strip()
            for cell in notebook["cells"]):
        raise EmptyNotebook(f"{path.name} is an empty notebook: none of its cells holds code. Submit the notebook"
                            " you worked in (saved first: File > Save)")
    code = extract_definitions(notebook, graded_names)
    this = next((assignment for assignment, stages in STAGES_BY_ASSIGNMENT.items()
                 if graded_names is not None and set(stages) == set(graded_names)), None)
    other = _other_assignment(notebook, code, this) if this is not None else None
    if other is not None:
        raise OtherAssignmentNotebook(
            f"{path.name} looks like {other}, not {this}: its answer cells are {other}'s stages. Submit the"
            f" notebook of {this} here, and that of {other} under its own name", looks_like=other)
    return code


def _other_assignment(notebook: dict, code: ExtractedCode, this: str) -> str | None:
    """The assignment whose notebook this plainly is, when it is not ``this``: its answer cells'
    stages (or, with no markers left, the stages it defines) belong to another assignment more
    than to this one."""
    markers = [_nbgrader_metadata(cell) or {} for cell in notebook["cells"]]
    answer_ids = {marker["grade_id"] for marker in markers
                  if marker.get("solution") is True and isinstance(marker.get("grade_id"), str)}
    found = answer_ids or {name for block in code.blocks for name in block.names}
    counts = {assignment: len(found & set(stages)) for assignment, stages in STAGES_BY_ASSIGNMENT.items()}
    best = max(counts, key=counts.__getitem__)
    return best if best != this and counts[best] > counts[this] else None
