"""What a notebook's setup cell binds: the course's helpers, speaking the notebook's language.

    from attention_kit_student import notebook_helpers
    check, hint, predict, reveal, needs, tr, submit = notebook_helpers("zh")

(a setup cell imports ``check, hint, predict, reveal, submit`` from ``attention_kit_student.<language>``)

- ``check("<stage>")`` runs a stage's public check; ``hint("<stage>", tier)`` gives its hints
  (1 the idea, 2 the functions, 3 code), and the notebook keeps which tier was opened;
- ``predict("<question>", ...)`` records a prediction before a demo, ``reveal`` compares it
  with what the demo measured (``predictions``);
- ``submit()`` sends the notebook to the course's submission service and shows its grade here
  (``submitting``).

Binding them also makes the kit's demo cells wait for their stage (``waiting_demos``), with nothing
in the demo's code; every other cell runs as plain Python. The demos' words are translated when a
notebook is built (``autograder.notebooks.demo_words``); ``needs`` and ``tr``, which notebooks
released before then call, stay for them:

- ``with needs("<stage>"):`` holds a demo back until its stage works, and keeps "Run All" going
  when a stage is wrong, saying so in one line;
- ``tr("English text")`` gives a demo's words in the notebook's language (``locales/<language>/
  demos.json``, keyed by the English).

A kernel cannot see its notebook's metadata (on Colab it cannot even read the file), so the
setup cell names the language itself.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator
from typing import NamedTuple

from . import language as languages
from .cell_places import record_cell_places
from .predictions import Predictions
from .selfcheck.catalog import speaking, text
from .selfcheck.figures import use_fonts
from .selfcheck.runner import SelfChecks, run_check
from .submitting import make_submit
from .waiting_demos import say_stopped, wait_for_stages


class Helpers(NamedTuple):
    check: SelfChecks
    hint: object
    predict: object
    reveal: object
    needs: object
    tr: object
    submit: object


def translator(language: str):
    """``tr``: an English demo text in ``language`` (the English itself where no translation is)."""
    table = languages.messages(language, "demos", {})

    def tr(english: str) -> str:
        return table.get(english, english)

    return tr


def _needs(language: str):
    @contextlib.contextmanager
    def needs(stage: str) -> Iterator[None]:
        """Run a demo once ``stage`` works; until then print one line, so that Run All goes on."""
        try:
            yield
        except NotImplementedError as error:
            named = str(error).split(":")[0]
            with speaking(language):
                print(text("needs.finish_first", stage=named if named.isidentifier() else stage))
        except Exception as error:  # noqa: BLE001 - a wrong answer must not stop Run All either
            say_stopped(error, stage, language)

    return needs


@functools.cache
def notebook_helpers(language: str | None = None) -> Helpers:
    """The helpers of a notebook in ``language`` (en, zh, pt); English for any other value."""
    language = language if language in languages.LANGUAGES else languages.DEFAULT_LANGUAGE
    checks = SelfChecks(language)
    predictions = Predictions(language, lambda stage, namespace: not run_check(stage, namespace, language).passed)
    with contextlib.suppress(ImportError):  # the figures' fonts, where matplotlib is installed
        use_fonts(language)
    wait_for_stages(language)
    record_cell_places()
    return Helpers(checks, checks.hint, predictions.predict, predictions.reveal, _needs(language), translator(language),
                   make_submit(language))
