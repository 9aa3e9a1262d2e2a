"""The running example "Your journey starts with one step": six tokens, 3-d embeddings.

``your_journey.json`` beside this module holds them (the book's printed values), for the
self-checks, the hidden tests and the kit's tests; each notebook writes the same numbers in its
own code, as the book does, so that it runs without any file.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import torch

EXAMPLE_FILE = Path(__file__).resolve().parent / "your_journey.json"


@cache
def _load() -> dict:
    return json.loads(EXAMPLE_FILE.read_text(encoding="utf-8"))


def your_journey_tokens() -> list[str]:
    """The six tokens of the example sentence, in order."""
    return list(_load()["tokens"])


def your_journey_inputs(dtype: torch.dtype = torch.float32) -> torch.Tensor:
    """The example's token embeddings, shape (6, 3): one row per token (a new tensor each call)."""
    return torch.tensor(_load()["embeddings"], dtype=dtype)
