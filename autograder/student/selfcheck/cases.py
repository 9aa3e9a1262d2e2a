"""The inputs of the public checks whose outputs the kit writes down, one builder per case.

A public check compares the student's output on one of these inputs with the expected output and
with the outputs of the catalogue's named mistakes on the same input (``known``). Those outputs
are data in ``known_outputs.json``, written by the kit from the reference solutions and the
hidden tests' catalogue of mistakes (``python -m autograder.notebooks.known_outputs``, run by
``make assignments``); nothing here computes them.
"""

from __future__ import annotations

from collections.abc import Callable

import torch

from ..example import your_journey_inputs
from .book import BOOK_WEIGHTS_2, book_batch, book_causal_scores

# A small input of softmax, and its softmax along each dimension (worked out once, to 4 places).
SOFTMAX_INPUT = [[0.5, -1.0, 2.0, 0.0], [1.5, 1.5, -0.5, 3.0], [-2.0, 0.0, 1.0, -1.0]]
# Rows whose exp overflows unless the largest entry of the row is subtracted first: the last one
# also overflows when the mean is subtracted, or the minimum.
LARGE_SCORES = [[1000.0, 1001.0, 1002.0], [-1000.0, -1001.0, -1002.0], [0.0, 200.0, 400.0]]


def seeded(seed: int) -> torch.Generator:
    return torch.Generator().manual_seed(seed)


def book_queries_and_keys() -> tuple[torch.Tensor, torch.Tensor]:
    """The running example's queries and keys with the book's W_query, W_key (seed 123)."""
    generator = seeded(123)
    w_query, w_key = torch.rand(3, 2, generator=generator), torch.rand(3, 2, generator=generator)
    inputs = your_journey_inputs()
    return inputs @ w_query, inputs @ w_key  # (6, 2) each


def causal_average_input() -> torch.Tensor:
    return torch.randn(4, 8, 2, generator=seeded(42))  # (B, T, C) as in the averaging walk-through


def book_softmax_weights() -> torch.Tensor:
    return torch.softmax(book_causal_scores() / 2**0.5, dim=-1)  # the book's (6, 6), before the mask


# Function cases: the positional arguments of the stage's function.
FUNCTION_CASES: dict[str, tuple[str, Callable[[], tuple]]] = {
    "attention_scores_for_query": ("attention_scores_for_query",
                                   lambda: (your_journey_inputs(), your_journey_inputs()[1])),
    "attention_scores": ("attention_scores", lambda: (your_journey_inputs(),)),
    "softmax/book": ("softmax", lambda: (book_causal_scores(), -1)),  # square, and not symmetric
    "softmax/rows": ("softmax", lambda: (torch.tensor(SOFTMAX_INPUT), -1)),
    "softmax/columns": ("softmax", lambda: (torch.tensor(SOFTMAX_INPUT), 0)),
    "softmax/large": ("softmax", lambda: (torch.tensor(LARGE_SCORES), -1)),
    "context_vector": ("context_vector", lambda: (torch.tensor(BOOK_WEIGHTS_2), your_journey_inputs())),
    "simple_self_attention": ("simple_self_attention", lambda: (your_journey_inputs(),)),
    "scaled_dot_product_scores": ("scaled_dot_product_scores", book_queries_and_keys),
    "causal_average": ("causal_average", lambda: (causal_average_input(),)),
    "causal_mask": ("causal_mask", lambda: (4,)),
    "mask_and_renormalize": ("mask_and_renormalize", lambda: (book_softmax_weights(),)),
    "masked_softmax": ("masked_softmax", lambda: (book_causal_scores(), 2)),
    "split_heads": ("split_heads", lambda: (torch.arange(2 * 5 * 12, dtype=torch.float32).reshape(2, 5, 12), 3)),
    "merge_heads": ("merge_heads", lambda: (torch.arange(2 * 3 * 5 * 4, dtype=torch.float32).reshape(2, 3, 5, 4),)),
}

# Module cases: the class, its arguments, the seed its weights are made under, and its input.
MODULE_CASES: dict[str, tuple[str, tuple, dict, int, Callable[[], torch.Tensor]]] = {
    "SelfAttention_v1": ("SelfAttention_v1", (3, 2), {}, 123, your_journey_inputs),
    "SelfAttention_v2": ("SelfAttention_v2", (3, 2), {}, 789, your_journey_inputs),
    "CausalAttention": ("CausalAttention", (3, 2, 6, 0.0), {}, 123, book_batch),
    "MultiHeadAttentionWrapper": ("MultiHeadAttentionWrapper", (3, 2, 6, 0.0), {"num_heads": 2}, 123, book_batch),
    "MultiHeadAttention": ("MultiHeadAttention", (3, 2, 6, 0.0), {"num_heads": 2}, 123, book_batch),
}
