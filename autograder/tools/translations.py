"""Which English each translated message was reviewed against, and the command that records a review.

    python -m autograder.tools.translations                                (lists what needs review)
    python -m autograder.tools.translations review <language> <catalog> <key> ...
    python -m autograder.tools.translations review <language> <catalog> --all

The kit's messages are written in English in its code (``SENTENCES``, ``MISTAKES``, ...: see
``CATALOGS``), and each message catalog, ``<locales>/<language>/<catalog>.json``, translates them
key for key. Beside each catalog, ``<catalog>.hashes.json`` holds for every key the hash of the
English text (``english_hash``, as in the notebooks' translations) that its translation was last
reviewed against. When an English message changes, its hash no longer matches and the kit's tests
fail (tests/test_translations.py), naming the catalog, the language and the key, until a reviewer
updates the translation and runs ``review``, which records the hash of today's English.

Why a sibling file, not an ``en_hash`` in every entry as the notebooks' catalogs have: a message
catalog stays a flat map from key to sentence, which translators read at a glance and translation
tools (Weblate's and Crowdin's key-value JSON) edit as it is; a hash records a review, so this
command writes it and nobody types it; and at run time only the catalogs are read, exactly as
before, so loading costs nothing more and the student package needs no hash (its wheel leaves the
hash files out).

Not here: the notebooks' markdown, whose catalogs carry their hashes inline
(``autograder.notebooks.translation``), and the demos' words (``demos.json``), which are keyed by
the English text itself: a changed English text is a new key, and tests/test_course_notebooks.py
already requires every key to be translated.

``review ... --all`` marks every entry of a catalog as reviewed: it is for a catalog that gets its
hashes for the first time (all of them did so in issue 44), not for skipping a review.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple

from autograder.feedback.page import PAGE_TEXT
from autograder.findings.english import SENTENCES
from autograder.notebooks.self_checks_cell import WORDS as SELF_CHECKS_CELL_WORDS
from autograder.notebooks.translation import english_hash
from autograder.paths import KIT_ROOT, LOCALES_DIR
from autograder.service.web.text import SERVICE_TEXT
from autograder.student.language import STUDENT_LOCALES_DIR, TRANSLATIONS, catalog_path
from autograder.student.mistakes import MISTAKES
from autograder.student.predictions import MESSAGES as PREDICTION_MESSAGES
from autograder.student.selfcheck.catalog import MESSAGES as SELFCHECK_MESSAGES
from autograder.student.selfcheck.hints import TIER_TEXTS
from autograder.student.submitting import MESSAGES as SUBMIT_MESSAGES
from autograder.student.think_about_it import WORDS as THINK_ABOUT_IT_WORDS


class MessageCatalog(NamedTuple):
    """Where a catalog's translations live, and the English they translate."""

    locales: Path
    english: Mapping[str, str]


CATALOGS: dict[str, MessageCatalog] = {
    "selfcheck": MessageCatalog(STUDENT_LOCALES_DIR, SELFCHECK_MESSAGES),
    "mistakes": MessageCatalog(STUDENT_LOCALES_DIR, MISTAKES),
    "predictions": MessageCatalog(STUDENT_LOCALES_DIR, PREDICTION_MESSAGES),
    "hints": MessageCatalog(STUDENT_LOCALES_DIR, TIER_TEXTS),
    "submit": MessageCatalog(STUDENT_LOCALES_DIR, SUBMIT_MESSAGES),
    "think_about_it": MessageCatalog(STUDENT_LOCALES_DIR, THINK_ABOUT_IT_WORDS),
    "feedback": MessageCatalog(LOCALES_DIR, PAGE_TEXT),
    "findings": MessageCatalog(LOCALES_DIR, SENTENCES),
    "self_checks_cell": MessageCatalog(LOCALES_DIR, SELF_CHECKS_CELL_WORDS),
    "service": MessageCatalog(LOCALES_DIR, SERVICE_TEXT),
}


class ReviewError(Exception):
    """A review names a key that cannot be reviewed; the message says why."""


def translations_path(language: str, name: str) -> Path:
    """The catalog ``name`` of ``language``."""
    return catalog_path(language, name, CATALOGS[name].locales)


def hashes_path(language: str, name: str) -> Path:
    """The file of reviewed hashes beside the catalog ``name`` of ``language``."""
    return catalog_path(language, f"{name}.hashes", CATALOGS[name].locales)


def _shown(path: Path) -> Path:
    """``path`` as a reader of the kit finds it: from the kit's root when it is inside."""
    return path.relative_to(KIT_ROOT) if path.is_relative_to(KIT_ROOT) else path


def _read(path: Path) -> dict[str, str]:
    """A JSON object from ``path``, read now (not the run time's cache): empty when there is no file."""
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def review_command(language: str, name: str, key: str) -> str:
    """The command that records a review of one key."""
    return f"python -m autograder.tools.translations review {language} {name} {key}"


def review_problems(language: str, name: str) -> list[str]:
    """What keeps the ``language`` catalog ``name`` from matching today's English; empty when nothing does."""
    english = CATALOGS[name].english
    where, hashes_where = _shown(translations_path(language, name)), _shown(hashes_path(language, name))
    translated = _read(translations_path(language, name))
    reviewed = _read(hashes_path(language, name))
    problems = []
    for key, text in english.items():
        command = review_command(language, name, key)
        if key not in translated:
            problems.append(f"{where}: {key!r} has no {language} translation: translate the English {text!r},"
                            f" then run `{command}`")
        elif key not in reviewed:
            problems.append(f"{where}: the {language} translation of {key!r} was never reviewed: check it against"
                            f" the English {text!r}, then run `{command}`")
        elif reviewed[key] != english_hash(text):
            problems.append(f"{where}: the English of {key!r} changed since its {language} translation was"
                            f" reviewed; it now reads {text!r}: update the translation, then run `{command}`")
    problems += [f"{where}: {key!r} is no English message any more: remove it" for key in translated
                 if key not in english]
    problems += [f"{hashes_where}: {key!r} has no translation in {where}: remove it" for key in reviewed
                 if key not in translated]
    return problems


def review(language: str, name: str, keys: list[str] | None = None) -> None:
    """Record that the ``language`` translations of ``keys`` (None: every entry) match today's English.

    The hash file is rewritten keyed like the catalog, keeping the other entries' hashes as they were.
    """
    english = CATALOGS[name].english
    translated = _read(translations_path(language, name))
    for key in keys or ():
        if key not in english:
            raise ReviewError(f"{name} has no English message {key!r}")
        if key not in translated:
            raise ReviewError(f"{_shown(translations_path(language, name))} has no {key!r}: translate it first")
    chosen = set(translated) if keys is None else set(keys)
    reviewed = _read(hashes_path(language, name))
    hashes = {key: english_hash(english[key]) if key in chosen else reviewed[key]
              for key in translated if key in english and (key in chosen or key in reviewed)}
    hashes_path(language, name).write_text(json.dumps(hashes, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    """List what needs review (exit 1 when anything does), or record a review."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command")
    reviewing = commands.add_parser("review", help="record that translations match today's English")
    reviewing.add_argument("language", choices=TRANSLATIONS)
    reviewing.add_argument("catalog", choices=CATALOGS)
    reviewing.add_argument("keys", nargs="*", metavar="key", help="the keys whose translation you reviewed")
    reviewing.add_argument("--all", action="store_true",
                           help="every entry: only for a catalog that gets its hashes for the first time")
    args = parser.parse_args(argv)
    if args.command == "review":
        if bool(args.keys) == args.all:
            parser.error("name the keys you reviewed, or --all (and no key) for a catalog's first hashes")
        try:
            review(args.language, args.catalog, None if args.all else args.keys)
        except ReviewError as error:
            print(error, file=sys.stderr)
            return 1
        return 0
    problems = [problem for language in TRANSLATIONS for name in CATALOGS
                for problem in review_problems(language, name)]
    print("\n".join(problems) or f"every message catalog matches today's English in {', '.join(TRANSLATIONS)}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
