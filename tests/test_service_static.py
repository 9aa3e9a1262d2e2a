"""The service's files that must follow its code: migrations for its models, and its pages' text
in every language (the same keys and fields as the English)."""

from __future__ import annotations

import json
import os
import string
import subprocess
import sys

import pytest

from autograder.paths import KIT_ROOT, LOCALES_DIR
from autograder.service.web.text import SERVICE_TEXT
from autograder.student.language import TRANSLATIONS


def test_the_migrations_match_the_models(tmp_path):
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "autograder.service.settings", "KIT_SERVICE_DATA": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "django", "makemigrations", "--check", "--dry-run", "service"],
                          cwd=KIT_ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"run `python -m django makemigrations service`:\n{done.stdout}{done.stderr}"


def _fields(text: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field}


@pytest.mark.parametrize("language", TRANSLATIONS)
def test_every_page_sentence_is_translated_with_its_fields(language):
    catalog = json.loads((LOCALES_DIR / language / "service.json").read_text(encoding="utf-8"))
    assert set(catalog) == set(SERVICE_TEXT)
    for key, english in SERVICE_TEXT.items():
        assert _fields(catalog[key]) == _fields(english), key
