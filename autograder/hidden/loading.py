"""What became of a notebook's definitions, in the student's terms.

The worker reports each definition that raised while loading by its cell's index and its line.
Here each becomes a finding that names the cell as the student sees it (its first line, its place
among the answer cells: ``ExtractedCode.places``), with the slip its error shows where it shows
one (``nn.Model``: did you mean Module?); and the names each lost definition would have defined
are kept, so that a test of one says "did not load" and why, rather than "not defined".
"""

from __future__ import annotations

from dataclasses import dataclass, field

from autograder.findings.finding import Finding, finding
from autograder.reading.notebook import ExtractedCode
from autograder.student.reading import slips


@dataclass
class LoadedNotebook:
    """A notebook's loading problems as the student reads them, and the names they cost."""

    problems: list[Finding] = field(default_factory=list)
    lost: dict[str, Finding] = field(default_factory=dict)  # name -> the problem that lost it


def placed(problems: list[Finding], code: ExtractedCode) -> LoadedNotebook:
    """``problems`` (the reader's, already placed, then the worker's ``cell_raised``) with every cell
    named as the student sees it; and every name whose definition was lost."""
    loaded = LoadedNotebook(lost=dict(code.lost))
    sources = [block.source for block in code.blocks]
    for problem in problems:
        cell = problem.fields.get("cell")
        if problem.key != "cell_raised" or type(cell) is not int:
            loaded.problems.append(problem)
            continue
        line = problem.fields.get("line")
        error = str(problem.fields.get("error", ""))
        error_type, _, message = error.partition(": ")
        slip = slips.slip_in_error(error_type, message, "", sources)
        named = finding("cell_raised", cell=code.place(cell - 1), line=line, error=error)
        if slip is not None:
            named = named.with_notes(finding(slip.evidence, **slip.fields))
        loaded.problems.append(named)
        for block in code.blocks:
            if block.cell_index == cell - 1 and block.line == line:
                for name in block.names:
                    loaded.lost.setdefault(name, named)
    return loaded
