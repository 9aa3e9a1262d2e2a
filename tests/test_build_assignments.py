"""The committed student notebooks are exactly what the build produces from solutions/."""

from __future__ import annotations

import pytest

from autograder.build_assignments import build
from autograder.curriculum import ASSIGNMENTS
from autograder.paths import ASSIGNMENTS_DIR


@pytest.mark.slow
def test_committed_assignments_are_regenerated_byte_for_byte(tmp_path, capsys):
    written = build(tmp_path / "assignments", tmp_path / "course")
    assert [path.parent.name for path in written] == ASSIGNMENTS
    assert capsys.readouterr().out.count("generated ") == len(ASSIGNMENTS)
    committed = sorted(path.relative_to(ASSIGNMENTS_DIR) for path in ASSIGNMENTS_DIR.rglob("*") if path.is_file())
    assert committed == sorted(path.relative_to(tmp_path / "assignments") for path in written)
    for path in written:
        relative = path.relative_to(tmp_path / "assignments")
        assert path.read_bytes() == (ASSIGNMENTS_DIR / relative).read_bytes(), (
            f"assignments/{relative} is stale: run `make assignments`"
        )
