"""The kit's optional parts (``pyproject.toml``'s extras) and what a command that needs a missing
one says.

Grading needs none of them: ``pip install -e .`` is enough for ``grade``, ``doctor``, ``merge``,
``report``, ``export`` and ``similarity``. The submission service (``serve``, ``service``) needs
``[service]``; nbgrader's gradebook (``gradebook``) and the notebooks' build (``make
assignments``) need ``[nbgrader]``. Without its extra such a command stops before importing
anything of it, and names the command that installs it, rather than ending in an ImportError's
traceback.
"""

from __future__ import annotations

import importlib
import sys

from autograder.paths import KIT_ROOT

# The modules each extra's packages provide (their import names), as pyproject.toml lists them.
EXTRA_MODULES: dict[str, tuple[str, ...]] = {
    "service": ("django", "django_tasks", "django_tasks_db", "gunicorn", "psycopg", "pylti1p3",
                "lti1p3platform", "prometheus_client"),
    "nbgrader": ("nbgrader",),
}


class MissingExtra(Exception):
    """An optional part a command needs is not installed; the message says how to install it."""


def _missing(module: str) -> bool:
    try:
        importlib.import_module(module)
    except ImportError:
        return True
    return False


def require(extra: str, command: str) -> None:
    """Raise MissingExtra when a module of ``extra`` cannot be imported (``command`` needs it)."""
    missing = [module for module in EXTRA_MODULES[extra] if _missing(module)]
    if missing:
        raise MissingExtra(
            f"{command} needs the kit's optional part [{extra}], which is not installed here (no module"
            f" {', '.join(repr(module) for module in missing)}). Install it with: {sys.executable} -m pip install"
            f" -e '{KIT_ROOT}[{extra}]'  (make setup installs every part)")
