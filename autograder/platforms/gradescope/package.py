"""Build the Gradescope autograder zips: ``make gradescope`` writes ``build/gradescope/<id>.zip``.

One zip per notebook (one Gradescope assignment each). At its root are ``setup.sh`` and
``run_autograder`` (Gradescope's two required files), ``assignment.txt`` (the notebook it
grades) and the parts of the kit the grader needs: ``pyproject.toml``, ``README.md``,
``autograder/`` (the running example included) and ``solutions/``. Entries are
sorted and dated 1980-01-01, so the same kit always gives the same bytes.
"""

from __future__ import annotations

import argparse
import sys
import zipfile
from pathlib import Path

from autograder.paths import KIT_ROOT
from autograder.student.curriculum import ASSIGNMENTS

SCRIPTS_DIR = Path(__file__).resolve().parent
SCRIPTS = ("setup.sh", "run_autograder")
DEFAULT_OUT = KIT_ROOT / "build" / "gradescope"
_KIT_FILES = ("pyproject.toml", "README.md", "constraints.txt")
_KIT_FOLDERS = ("autograder", "solutions")
_LEFT_OUT = ("__pycache__", ".ipynb_checkpoints", "build")  # and *.egg-info: build leftovers
_DATE = (1980, 1, 1, 0, 0, 0)


def kit_files() -> list[str]:
    """The kit's files that go into every zip, relative to the kit's root, sorted."""
    files = list(_KIT_FILES)
    for folder in _KIT_FOLDERS:
        for path in (KIT_ROOT / folder).rglob("*"):
            relative = path.relative_to(KIT_ROOT)
            if path.is_file() and path.suffix != ".pyc" and not set(relative.parts) & set(_LEFT_OUT) \
                    and not any(part.endswith(".egg-info") for part in relative.parts):
                files.append(relative.as_posix())
    return sorted(files)


def _add(archive: zipfile.ZipFile, name: str, data: bytes, executable: bool = False) -> None:
    entry = zipfile.ZipInfo(name, date_time=_DATE)
    entry.compress_type = zipfile.ZIP_DEFLATED
    entry.external_attr = (0o100755 if executable else 0o100644) << 16
    archive.writestr(entry, data)


def build_zip(assignment_id: str, out_dir: Path = DEFAULT_OUT) -> Path:
    """Write ``<out_dir>/<assignment_id>.zip`` and return its path."""
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / f"{assignment_id}.zip"
    with zipfile.ZipFile(target, "w") as archive:
        for script in SCRIPTS:
            _add(archive, script, (SCRIPTS_DIR / script).read_bytes(), executable=True)
        _add(archive, "assignment.txt", f"{assignment_id}\n".encode())
        for name in kit_files():
            _add(archive, name, (KIT_ROOT / name).read_bytes())
    return target


def main(argv: list[str] | None = None) -> int:
    """Build the zips asked for on the command line (what `make gradescope` runs)."""
    parser = argparse.ArgumentParser(prog="python -m autograder.platforms.gradescope.package",
                                     description="Build one Gradescope autograder zip per notebook.")
    parser.add_argument("--assignment", choices=ASSIGNMENTS, help="only this notebook (default: all)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"default {DEFAULT_OUT}")
    args = parser.parse_args(argv)
    for assignment_id in [args.assignment] if args.assignment else ASSIGNMENTS:
        print(f"wrote {build_zip(assignment_id, args.out)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
