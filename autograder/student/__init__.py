"""The student side: what a notebook imports, shipped alone as the student package.

The public self-checks (``check("<stage>")``) and their hints in tiers, recorded predictions, the
figures of recognised mistakes, the running example, the curriculum's stage names and the
student-facing translations (demo texts included), and ``submit()`` with the CI client it shares
(``service_client.py``, which the service also serves alone). Nothing here imports grading code or reads the
solutions; the only code that solves a stage is each stage's third-tier hint, shown when a student
asks for it (and recorded in the notebook). This folder is the whole student package, built by
``make student-package`` (see ``pyproject.toml`` here). Its modules import one another
relatively, so the same files are ``autograder.student`` to the grader and
``attention_kit_student`` to students.

    from attention_kit_student import notebook_helpers
    check, hint, predict, reveal, needs, tr, submit = notebook_helpers("zh")   # what a notebook's setup cell binds
"""


def __getattr__(name: str):
    # Loaded on first use: the grader imports the curriculum from here without paying for torch.
    if name in ("check", "hint", "self_checks"):
        from .selfcheck import runner

        return getattr(runner, name)
    if name == "notebook_helpers":
        from .notebook import notebook_helpers

        return notebook_helpers
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
