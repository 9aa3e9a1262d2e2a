"""The full grading rules, a file beside every student notebook, in the notebook's language.

Each notebook ends with "How this notebook is graded": what a student must do, in at most 80
words, and a link to ``grading-rules.md`` beside the notebook, which says everything (what the
grader reads, and what differs from one notebook to the next). Its English text is the
documentation page docs/grading/rules.md, which the site shows too. A translation,
``autograder/locales/<language>/grading_rules.json``, maps each section of that page (``title``:
the title and what follows it; then each ``## `` section, by the slug of its English heading) to
its translated markdown and the hash of the English it translates, as the notebooks' catalogs do
(``autograder.notebooks.translation``): a changed English section stops the build until its
translation is updated.

`make assignments` writes the file beside every student notebook under assignments/ and in the
nbgrader course; `make release` puts it into every bundle. So the cell's relative link opens it
in JupyterLab, Notebook 7 and VS Code (Colab cannot open a file beside a notebook:
docs/students.md says what to do there).
"""

from __future__ import annotations

import re

from autograder.notebooks.translation import TranslationError, catalog_problems
from autograder.paths import KIT_ROOT, LOCALES_DIR
from autograder.student.language import DEFAULT_LANGUAGE, load_catalog

FILE_NAME = "grading-rules.md"
CATALOG = "grading_rules"
ENGLISH_RULES = KIT_ROOT / "docs" / "grading" / "rules.md"
_SECTION_HEADING = re.compile(r"^## (.+)$", re.MULTILINE)


def section_id(heading: str) -> str:
    """The id of a section in the catalogs: its English heading in lower case, words joined by '-'."""
    return re.sub(r"[^a-z0-9]+", "-", heading.lower()).strip("-")


def english_sections(text: str | None = None) -> dict[str, str]:
    """The English rules (docs/grading/rules.md unless ``text`` is given) by section id, in order."""
    text = ENGLISH_RULES.read_text(encoding="utf-8") if text is None else text
    headings = list(_SECTION_HEADING.finditer(text))
    sections = {"title": text[:headings[0].start() if headings else len(text)].strip()}
    for index, heading in enumerate(headings):
        end = headings[index + 1].start() if index + 1 < len(headings) else len(text)
        key = section_id(heading.group(1))
        if key in sections:
            raise ValueError(f"two sections of {ENGLISH_RULES.relative_to(KIT_ROOT)} are called {key!r}:"
                             " give each its own heading")
        sections[key] = text[heading.start():end].strip()
    return sections


def translation_problems(language: str) -> list[str]:
    """What keeps the rules from being written in ``language``; empty when nothing does."""
    return catalog_problems(english_sections(), language, CATALOG, part="section",
                            master=str(ENGLISH_RULES.relative_to(KIT_ROOT)))


def rules_markdown(language: str) -> str:
    """The full rules in ``language`` (raises TranslationError when a section lacks an up-to-date
    translation)."""
    sections = english_sections()
    if language == DEFAULT_LANGUAGE:
        return "\n\n".join(sections.values()) + "\n"
    problems = translation_problems(language)
    if problems:
        raise TranslationError("\n".join(problems))
    catalog = load_catalog(language, CATALOG, LOCALES_DIR)
    return "\n\n".join("\n".join(catalog[key]["markdown"]) for key in sections) + "\n"
