"""What a notebook's setup cell binds: the course's helpers, speaking the notebook's language.

    from attention_kit_student import notebook_helpers
    check, hint, predict, reveal, needs, tr, submit = notebook_helpers("zh")

- ``check("<stage>")`` runs a stage's public check; ``hint("<stage>", tier)`` gives its hints
  (1 the idea, 2 the functions, 3 code), and the notebook keeps which tier was opened;
- ``predict("<question>", ...)`` records a prediction before a demo, ``reveal`` compares it
  with what the demo measured (``predictions``);
- ``with needs("<stage>"):`` holds a demo back until its stage works, and keeps "Run All" going
  when a stage is wrong, saying so in one line;
- ``tr("English text")`` gives a demo's printed words and figure labels in the notebook's
  language (``locales/<language>/demos.json``, keyed by the English), so the code cells stay
  the same in every language;
- ``submit()`` sends the notebook to the course's submission service and shows its grade here
  (``submitting``).

A kernel cannot see its notebook's metadata (on Colab it cannot even read the file), so the
setup cell names the language itself.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator
from typing import NamedTuple

from . import language as languages
from .predictions import Predictions
from .selfcheck.catalog import speaking, text
from .selfcheck.figures import use_fonts
from .selfcheck.runner import SelfChecks
from .submitting import make_submit


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
            where = error.__traceback__
            while where.tb_next is not None:
                where = where.tb_next
            with speaking(language):
                if isinstance(error, NameError) and where.tb_frame.f_code.co_name == "<module>":
                    print(text("needs.name", name=error.name))
                else:
                    reason = f"{type(error).__name__}: {error}".splitlines()[0][:300]
                    print(text("needs.stopped", reason=reason, stage=stage))

    return needs


@functools.cache
def notebook_helpers(language: str | None = None) -> Helpers:
    """The helpers of a notebook in ``language`` (en, zh, pt); English for any other value."""
    language = language if language in languages.LANGUAGES else languages.DEFAULT_LANGUAGE
    checks = SelfChecks(language)
    predictions = Predictions(language)
    with contextlib.suppress(ImportError):  # the figures' fonts, where matplotlib is installed
        use_fonts(language)
    return Helpers(checks, checks.hint, predictions.predict, predictions.reveal, _needs(language), translator(language),
                   make_submit(language))
