"""The kit's types, checked by mypy as pyproject.toml's ``[tool.mypy]`` says.

mypy runs over the whole of ``autograder/``, strict by default (every function annotated, every
Optional value checked before use, names imported from the module that defines them), so that a new
module or package comes with its types. The packages not yet checked are listed there, each with
why; mypy still reads them for what the checked packages import from them. Its cache lives in
``.mypy_cache/kit``: with it warm the check takes about 2 seconds, from nothing about a minute.
"""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from mypy.main import process_options

from autograder.paths import KIT_ROOT

PACKAGE = KIT_ROOT / "autograder"


def _module_name(path: Path) -> str:
    parts = path.relative_to(KIT_ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_the_kit_type_checks():
    result = subprocess.run([sys.executable, "-m", "mypy"], capture_output=True, text=True, cwd=KIT_ROOT, timeout=900)
    assert result.returncode == 0, result.stdout[-8000:] + result.stderr[-2000:]


def test_every_module_is_checked_strictly_unless_its_package_is_listed_as_not_yet(monkeypatch):
    """No new module without types: mypy's run reaches every module under autograder/, and each
    one outside the packages listed as not yet checked must have every function annotated."""
    monkeypatch.chdir(KIT_ROOT)  # mypy reads pyproject.toml from the working directory
    sources, options = process_options([], stdout=io.StringIO(), stderr=io.StringIO())
    modules = {_module_name(path) for path in PACKAGE.rglob("*.py")}
    assert modules <= {source.module for source in sources}
    not_yet = {name for name in modules if options.clone_for_module(name).ignore_errors}
    listed = {pattern.removesuffix(".*") for pattern, settings in options.per_module_options.items()
              if settings.get("ignore_errors")}
    assert {".".join(name.split(".")[:2]) for name in not_yet} == listed  # whole packages, each one there
    loose = sorted(name for name in modules - not_yet
                   if not (options.clone_for_module(name).disallow_untyped_defs
                           and options.clone_for_module(name).check_untyped_defs))
    assert loose == []
    assert "autograder.records.results" in modules - not_yet
