"""The documentation site (docs/, mkdocs.yml): it builds with --strict, offline; every heading the
README had before the site has a page; every file and module of the kit that the pages name exists;
every setting the service reads is documented."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.paths import KIT_ROOT

DOCS = KIT_ROOT / "docs"
# The pages, the files at the root the site includes or that point into it.
DOCUMENTS = sorted(DOCS.rglob("*.md")) + [KIT_ROOT / name for name in
                                          ("README.md", "CONTRIBUTING.md", "ARCHITECTURE.md", "SECURITY.md")]

# The section headings of README.md before its content moved into docs/ (`grep -n '^#' README.md` on
# the README of 1110 lines, without the two comment lines of its code blocks). Each must remain
# the heading of some page, in the same words.
OLD_README_HEADINGS = [
    "Attention kit: an autograded course on the attention mechanism",
    "The two commands",
    "Layout",
    "Instructor guide: a term, in order",
    "Checking a machine: `doctor`",
    "In a container (Docker, Kubernetes, Gradescope, CI runners)",
    "On a GPU",
    "Grading outputs",
    "How grading works",
    "Points",
    "Speed",
    "Running the service (`python -m autograder serve`)",
    "Several machines: PostgreSQL and grading workers",
    "Deployment",
    "Inside Moodle or Canvas (LTI 1.3)",
    "Languages",
    "Student workflow",
    "Handing the notebooks to students",
    "Platforms",
    "nbgrader (JupyterHub)",
    "otter-grader",
    "Gradescope",
    "GitHub Actions in student repositories",
    "GitLab CI in student repositories",
    "Grading a class on several machines",
    "Canvas and Moodle gradebooks",
    "Class report",
]


def _words(heading: str) -> str:
    """A heading as compared: its words, with code backticks and parenthesised parts dropped (a page
    may title "Running the service (`python -m autograder serve`)" just "Running the service")."""
    heading = re.sub(r"\([^)]*\)", "", heading.replace("`", ""))
    return " ".join(heading.split())


def _headings(path: Path) -> set[str]:
    """The Markdown headings of a page, outside its code blocks."""
    headings, in_code = set(), False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            in_code = not in_code
        elif not in_code and (match := re.match(r"#{1,6}\s+(.+?)\s*#*\s*$", line)):
            headings.add(_words(match.group(1)))
    return headings


def test_the_site_builds_strict_and_offline(tmp_path):
    """mkdocs --strict turns every warning into a failure: a broken link or anchor, a page missing
    from the nav, a file the snippets cannot include. The theme must not load Google's fonts."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}  # Material's banner about its successor
    built = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file",
                            str(KIT_ROOT / "mkdocs.yml"), "--site-dir", str(tmp_path / "site")],
                           cwd=KIT_ROOT, env=env, capture_output=True, text=True, timeout=300)
    output = built.stdout + built.stderr
    assert built.returncode == 0, output
    assert "WARNING" not in output, output
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "fonts.googleapis.com" not in index, "the theme fetches fonts: set theme.font to false"
    assert "Four Jupyter notebooks teach" in index, "the home page no longer includes the README's part"


def test_every_old_readme_heading_has_a_page():
    found = set().union(*(_headings(path) for path in DOCS.rglob("*.md")))
    assert [heading for heading in OLD_README_HEADINGS if _words(heading) not in found] == []


def test_the_readme_stays_short():
    assert len((KIT_ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 150


KIT_PATH = re.compile(r"(?<![\w/.-])((?:autograder|tests|solutions|source_data|assignments)/[\w/.@-]*\w\.\w+)"
                      r"(?::(\d+(?:,\d+)*))?")
MODULE = re.compile(r"python -m (autograder(?:\.\w+)*)")


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: str(path.relative_to(KIT_ROOT)))
def test_every_kit_file_and_module_a_page_names_exists(document):
    """Paths such as `autograder/hidden/diagnosis.py` or `path.py:18,34`, and modules run with
    `python -m`: a page that names one that was moved or removed fails here."""
    text = document.read_text(encoding="utf-8")
    missing = []
    for match in KIT_PATH.finditer(text):
        path, lines = KIT_ROOT / match.group(1), match.group(2)
        last_line = max(map(int, lines.split(","))) if lines else 0
        if not path.exists() or last_line > len(path.read_text(encoding="utf-8").splitlines()):
            missing.append(match.group(0))
    for module in MODULE.findall(text):
        base = KIT_ROOT / module.replace(".", "/")
        if not (base.with_suffix(".py").is_file() or (base / "__main__.py").is_file()):
            missing.append(f"python -m {module}")
    assert missing == []


def test_every_setting_the_service_reads_is_on_the_settings_page():
    """Each setting of autograder/service/config.py has its row: its file key, variable and flag."""
    from autograder.service.config import CONFIG_VARIABLE, SETTINGS

    assert len(SETTINGS) > 10
    page = (DOCS / "service" / "settings.md").read_text(encoding="utf-8")
    read = {setting.variable for setting in SETTINGS} | {CONFIG_VARIABLE}
    assert sorted(read - set(re.findall(r"`(KIT_SERVICE_\w+)`", page))) == []
    for setting in SETTINGS:
        [row] = [line for line in page.splitlines() if line.startswith("|") and f"`{setting.variable}`" in line]
        names = [f"`{setting.name}`" if setting.in_file else "", f"`{setting.flag}`" if setting.has_flag else ""]
        assert all(name in row for name in names), f"{setting.variable}'s row lacks {names}"
