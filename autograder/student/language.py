"""The kit's languages: which exist, where their catalogs are, and which one a notebook is in.

English is the master language: the master notebooks and every English message live in the
code. Translations are data, one JSON catalog per message family keyed like the English: the
student side's (``selfcheck.json``, ``mistakes.json``) in this package's ``locales/<language>/``;
the grader keeps its own (notebook markdown, findings, the feedback page) elsewhere. Beside a
catalog, ``<name>.hashes.json`` records which English each entry was reviewed against; only the
kit's tests and reviewers read it (``autograder.tools.translations``), never this package.

A translated notebook says its language in its metadata, ``metadata.attention_kit.language``;
a notebook without that key is English. The grader reads it from the submitted file
(``notebook_language``). A kernel cannot see its notebook's metadata, so the self-checks find
the notebook file first (``kernel_language``).
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Mapping
from pathlib import Path

# The kit's languages, English first and then in build order, each with the BCP 47 tag its pages
# declare (<html lang>): the one list of them that everything else reads. A new language is a line
# here, its catalogs and its setup cell's module (docs/contributing/index.md, "Adding a language").
HTML_LANG = {"en": "en", "zh": "zh-Hans", "pt": "pt-BR"}
DEFAULT_LANGUAGE = "en"
LANGUAGES = tuple(HTML_LANG)
TRANSLATIONS = LANGUAGES[1:]  # the languages with catalogs

METADATA_KEY = "attention_kit"
STUDENT_LOCALES_DIR = Path(__file__).resolve().parent / "locales"
# Set to en, zh or pt to choose the self-checks' language whatever the notebook says.
LANGUAGE_VARIABLE = "ATTENTION_KIT_LANGUAGE"
# The largest notebook the kit reads: the grader refuses larger submissions (clear their outputs),
# and the self-checks do not read a larger notebook for its language.
MAX_NOTEBOOK_BYTES = 64 * 1024 * 1024


class CatalogError(Exception):
    """A catalog file is missing or malformed; the message names the file."""


def catalog_path(language: str, name: str, locales_dir: Path = STUDENT_LOCALES_DIR) -> Path:
    """Where the catalog ``name`` of ``language`` lives under ``locales_dir``."""
    return locales_dir / language / f"{name}.json"


@functools.cache
def load_catalog(language: str, name: str, locales_dir: Path = STUDENT_LOCALES_DIR) -> dict:
    """The catalog ``name`` of a translated language (read once per process)."""
    path = catalog_path(language, name, locales_dir)
    where = f"{language}/{name}.json in {locales_dir}"
    try:
        catalog = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CatalogError(f"{where} is missing") from None
    except json.JSONDecodeError as error:
        raise CatalogError(f"{where} is not valid JSON ({error})") from None
    if not isinstance(catalog, dict):
        raise CatalogError(f"{where} must hold one JSON object")
    return catalog


def messages(language: str, name: str, english: Mapping[str, str],
             locales_dir: Path = STUDENT_LOCALES_DIR) -> Mapping[str, str]:
    """The messages of family ``name`` in ``language``; English for English or a missing key."""
    if language not in TRANSLATIONS:
        return english
    return {**english, **load_catalog(language, name, locales_dir)}


def notebook_language(notebook: object) -> str:
    """The language a notebook (parsed JSON) declares; English when it declares none we know."""
    metadata = notebook.get("metadata") if isinstance(notebook, dict) else None
    kit = metadata.get(METADATA_KEY) if isinstance(metadata, dict) else None
    language = kit.get("language") if isinstance(kit, dict) else None
    return language if language in LANGUAGES else DEFAULT_LANGUAGE


def _language_from_path(path: Path) -> str | None:
    """assignments/<language>/<id>/<id>.ipynb names its language in the path."""
    folder = path.parent.parent.name
    return folder if folder in TRANSLATIONS else None


@functools.lru_cache(maxsize=16)
def _file_language(path: str, modified_ns: int, size: int) -> str | None:
    # Keyed by modification time and size, so an edited or replaced notebook is read again.
    if size > MAX_NOTEBOOK_BYTES:
        return None
    try:
        notebook = json.loads(Path(path).read_bytes())
    except (OSError, ValueError):
        return None
    return notebook_language(notebook) if isinstance(notebook, dict) and "cells" in notebook else None


def notebook_file_language(path: Path) -> str | None:
    """The language of the notebook file at ``path``, or None when it is no readable notebook."""
    try:
        status = path.stat()
    except (OSError, ValueError):
        return _language_from_path(path)
    if not path.is_file():
        return None
    return _file_language(str(path.resolve()), status.st_mtime_ns, status.st_size) or _language_from_path(path)


def kernel_language(namespace: Mapping, assignment_id: str | None) -> str:
    """The language of the notebook this kernel runs, for the self-checks; English when unknown.

    Looked up in order:
    1. the ``ATTENTION_KIT_LANGUAGE`` environment variable, when it names a language;
    2. the notebook the kernel was started for: ``__session__`` (set by ipykernel from Jupyter's
       ``JPY_SESSION_NAME``; JupyterLab and Notebook 7), ``__vsc_ipynb_file__`` (VS Code), or
       ``JPY_SESSION_NAME`` itself;
    3. ``<assignment_id>.ipynb`` in the working directory (Jupyter, VS Code and nbclient start
       a kernel in its notebook's folder).
    The first readable notebook decides, by its metadata (or, for a file that cannot be read,
    by an ``assignments/<language>/<id>/`` path).
    """
    chosen = os.environ.get(LANGUAGE_VARIABLE, "").strip().lower()
    if chosen in LANGUAGES:
        return chosen
    candidates = [namespace.get("__session__"), namespace.get("__vsc_ipynb_file__"),
                  os.environ.get("JPY_SESSION_NAME")]
    if assignment_id:
        candidates.append(f"{assignment_id}.ipynb")
    for candidate in candidates:
        if isinstance(candidate, str) and candidate.endswith(".ipynb"):
            language = notebook_file_language(Path(candidate))
            if language is not None:
                return language
    return DEFAULT_LANGUAGE
