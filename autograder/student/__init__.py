"""The student side: what a notebook imports, shipped alone as the student package.

The public self-checks (``check("<stage>")``), the running example, the curriculum's stage
names and the student-facing translations. Nothing here imports grading code, reads the
solutions or holds reference code: this folder is the whole student package, built by
``make student-package`` (see ``pyproject.toml`` here). Its modules import one another
relatively, so the same files are ``autograder.student`` to the grader and
``attention_kit_student`` to students.

    from attention_kit_student import self_checks
    check = self_checks("zh")       # the self-checks, speaking the notebook's language
    hint = check.hint               # a stage's hint, for a student who asks
"""


def __getattr__(name: str):
    # Loaded on first use: the grader imports the curriculum from here without paying for torch.
    if name in ("check", "hint", "self_checks"):
        from .selfcheck import runner

        return getattr(runner, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
