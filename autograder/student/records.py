"""What a notebook keeps of a student's learning: the hint tiers opened, the predictions made and
the outcomes the demos measured.

A kernel cannot write its notebook's metadata, and no frontend (Jupyter, Colab, VS Code) lets
it; what it can do everywhere is give an output metadata of its own. So each hint, prediction
and outcome is shown as an output whose metadata holds the record, under ``attention_kit``;
the notebook keeps it when saved, and the grader reads it there (``autograder.reading.learning_records``)
without running anything. Outside a notebook the text is simply printed.
"""

from __future__ import annotations

RECORD_KEY = "attention_kit"
TIERS = 3  # hint tiers: the idea, the tools that do it, a skeleton to complete


def show(text: str, record: dict) -> None:
    """Show ``text`` to the student and keep ``record`` (plain JSON data) in the output's metadata."""
    shell = _ipython()
    if shell is None:
        print(text)
        return
    from IPython.display import display

    display({"text/plain": text}, raw=True, metadata={RECORD_KEY: record})


def _ipython():
    """The running IPython shell, or None outside one (a script, a test)."""
    try:
        from IPython import get_ipython
    except ImportError:
        return None
    return get_ipython()
