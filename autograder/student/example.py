"""The running example "Your journey starts with one step": six tokens, 3-d embeddings.

Shared by the notebooks, the self-checks and the tests.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import torch

EXAMPLE_FILE = Path(__file__).resolve().parents[2] / "source_data" / "your_journey.json"


@cache
def _load() -> dict:
    return json.loads(EXAMPLE_FILE.read_text(encoding="utf-8"))


def your_journey_tokens() -> list[str]:
    """The six tokens of the example sentence, in order."""
    return list(_load()["tokens"])


def your_journey_inputs(dtype: torch.dtype = torch.float32) -> torch.Tensor:
    """The example's token embeddings, shape (6, 3): one row per token (a new tensor each call)."""
    return torch.tensor(_load()["embeddings"], dtype=dtype)
