"""Findings as text, in the reader's language: the one place where a finding becomes words.

English comes from ``autograder.findings.english.SENTENCES`` and the mistakes catalog
(``autograder.student.mistakes``); a translation from ``autograder/locales/<language>/findings.json``
and the student side's ``mistakes.json``. Code, shapes, numbers and the student's own error
texts (the plain fields) stay as they are in every language. Rendering is linear in the size
of the finding.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping

from autograder.findings.english import SENTENCES
from autograder.findings.finding import FieldValue, Finding
from autograder.paths import LOCALES_DIR
from autograder.student import language as languages
from autograder.student.mistakes import MISTAKES

# Full-width punctuation brings its own spacing: a blank after it, left by a template that puts
# one after {what} as it should after code, is dropped ("（x 的形状为 (2, 5)）保留下来的元素").
_BLANK_AFTER_FULL_WIDTH = re.compile(r"(?<=[）：；，。]) ")
LIST_SEPARATOR = "problems.separator"  # joins a field that holds a list of findings
# A mistake's text is what it looks like, then its fix, after the first colon.
_SAID_AND_FIX = re.compile(r":\s|：")


@functools.cache
def sentences(language: str) -> Mapping[str, str]:
    """Every finding template in ``language`` (English where a catalog lacks a key)."""
    return languages.messages(language, "findings", SENTENCES, LOCALES_DIR)


@functools.cache
def mistake_texts(language: str) -> Mapping[str, str]:
    """The named mistakes in ``language``."""
    return languages.messages(language, "mistakes", MISTAKES)


def render(found: Finding, language: str = languages.DEFAULT_LANGUAGE, *, faults: bool = True,
           told: frozenset[str] = frozenset()) -> str:
    """``found`` as the reader of ``language`` reads it: its sentence, its notes (what the
    evidence shows, how the notebook was read), the named mistake, each further fault (unless
    ``faults`` is false: a page that shows them apart, ``rendered_faults``), then its verbatim
    detail on a line of its own. A mistake in ``told`` (explained above it on the same page) is
    referred to, not explained again."""
    parts = [_sentence(found, language), *(_sentence(note, language) for note in found.notes)]
    if found.mistake in told:  # named again in short (what it looks like), since "above" may hold several
        said = mistake_texts(language).get(found.mistake, found.mistake)
        parts.append(sentences(language)["hint.same_mistake"].format(mistake=_SAID_AND_FIX.split(said, maxsplit=1)[0]))
    elif found.mistake:
        hint = sentences(language)["hint.likely_mistake"]
        parts.append(hint.format(mistake=mistake_texts(language).get(found.mistake, found.mistake)))
    if faults:
        parts.extend(rendered_faults(found, language, told))
    return _joined(parts) + ("\n" + found.detail if found.detail else "")


# A sentence that ends without its full stop (torch's own message, quoted as it is) before the next
# one begins (a capital after a space; a Chinese character): the seam gets the stop it lacks.
_UNSTOPPED_END = re.compile(r"[\w)\]'\"`]$")
_SENTENCE_START = {"。": re.compile(r"^[\u4e00-\u9fff]"), ".": re.compile(r"^ [A-Z]")}


def _joined(parts: list[str]) -> str:
    text = ""
    for part in filter(None, parts):
        if _UNSTOPPED_END.search(text):
            text += next((stop for stop, start in _SENTENCE_START.items() if start.match(part)), "")
        text += part
    return text


def rendered_faults(found: Finding, language: str = languages.DEFAULT_LANGUAGE,
                    told: frozenset[str] = frozenset()) -> list[str]:
    """Each further fault of ``found``, in the order to fix them, as a sentence that says it is
    another fault (``told`` as in ``render``)."""
    template = sentences(language)["hint.another_fault"]
    return [template.format(fault=render(fault, language, told=told)) for fault in found.faults]


def _sentence(found: Finding, language: str) -> str:
    template = sentences(language).get(found.key)
    if template is None:  # a key from a newer kit: show what is known rather than fail
        return " ".join(str(_field(value, language)) for value in found.fields.values())
    text = template.format_map(_Fields(found, language))
    return text if language == languages.DEFAULT_LANGUAGE else _BLANK_AFTER_FULL_WIDTH.sub("", text)


def _field(value: FieldValue, language: str) -> str | int:
    if isinstance(value, Finding):
        return render(value, language)
    if isinstance(value, list):
        return sentences(language)[LIST_SEPARATOR].join(render(item, language) for item in value)
    return value


class _Fields(dict):
    """The fields of a finding, rendered on demand; a field the template names but the finding
    lacks shows as ``{name}`` rather than raising."""

    def __init__(self, found: Finding, language: str):
        super().__init__()
        self._found, self._language = found, language

    def __missing__(self, name: str) -> str | int:
        if name not in self._found.fields:
            return "{" + name + "}"
        return _field(self._found.fields[name], self._language)
