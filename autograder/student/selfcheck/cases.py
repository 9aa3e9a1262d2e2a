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


# Second inputs, of other sizes than the book's (T = 6 tokens of d_in = 3, d_out = 2, 2 heads): a
# size or a scale written as the book's number gives the right output on the book's input only.
OTHER_TOKENS, OTHER_D_IN = 5, 4  # the functions' (T, d)
OTHER_BATCH = (2, 7, 4)  # the modules' (b, T, d_in): T longer than the book's 6


def other_tokens() -> torch.Tensor:
    return torch.randn(OTHER_TOKENS, OTHER_D_IN, generator=seeded(3))  # (5, 4)


def other_square_tokens() -> torch.Tensor:
    """Five tokens of five features (T == d): a product taken the other way has the right shape here."""
    return torch.randn(OTHER_TOKENS, OTHER_TOKENS, generator=seeded(44))  # (5, 5)


def other_batch() -> torch.Tensor:
    return torch.randn(*OTHER_BATCH, generator=seeded(4))  # (2, 7, 4)


def other_queries_and_keys() -> tuple[torch.Tensor, torch.Tensor]:
    generator = seeded(123)
    return torch.randn(2, 3, 4, generator=generator), torch.randn(2, 5, 4, generator=generator)  # d_k = 4


def other_weights() -> torch.Tensor:
    return torch.softmax(torch.randn(2, 3, 5, 5, generator=seeded(5)), dim=-1)  # (b, h, T, T)


def other_scores() -> torch.Tensor:
    return torch.randn(2, 3, 5, 5, generator=seeded(6))  # (b, h, T, T)


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
    "attention_scores_for_query/other": ("attention_scores_for_query", lambda: (other_tokens(), other_tokens()[2])),
    "attention_scores/other": ("attention_scores", lambda: (other_tokens(),)),
    "context_vector/other": ("context_vector",
                             lambda: (torch.softmax(other_square_tokens()[:, 0], dim=0), other_square_tokens())),
    "simple_self_attention/other": ("simple_self_attention", lambda: (other_tokens(),)),
    "scaled_dot_product_scores/other": ("scaled_dot_product_scores", other_queries_and_keys),
    "causal_average/other": ("causal_average", lambda: (torch.randn(3, 5, 4, generator=seeded(43)),)),
    "mask_and_renormalize/other": ("mask_and_renormalize", lambda: (other_weights(),)),
    "masked_softmax/other": ("masked_softmax", lambda: (other_scores(), 4)),
    "split_heads/other": ("split_heads", lambda: (torch.arange(3 * 4 * 10, dtype=torch.float32).reshape(3, 4, 10), 2)),
    "merge_heads/other": ("merge_heads",
                          lambda: (torch.arange(3 * 2 * 4 * 5, dtype=torch.float32).reshape(3, 2, 4, 5),)),
}

# Module cases: the class, its arguments, the seed its weights are made under, and its input.
MODULE_CASES: dict[str, tuple[str, tuple, dict, int, Callable[[], torch.Tensor]]] = {
    "SelfAttention_v1": ("SelfAttention_v1", (3, 2), {}, 123, your_journey_inputs),
    "SelfAttention_v2": ("SelfAttention_v2", (3, 2), {}, 789, your_journey_inputs),
    "CausalAttention": ("CausalAttention", (3, 2, 6, 0.0), {}, 123, book_batch),
    "MultiHeadAttentionWrapper": ("MultiHeadAttentionWrapper", (3, 2, 6, 0.0), {"num_heads": 2}, 123, book_batch),
    "MultiHeadAttention": ("MultiHeadAttention", (3, 2, 6, 0.0), {"num_heads": 2}, 123, book_batch),
    "SelfAttention_v1/other": ("SelfAttention_v1", (4, 3), {}, 123, other_tokens),
    "SelfAttention_v2/other": ("SelfAttention_v2", (4, 3), {}, 789, other_tokens),
    "CausalAttention/other": ("CausalAttention", (4, 3, 9, 0.0), {}, 123, other_batch),
    "MultiHeadAttentionWrapper/other": ("MultiHeadAttentionWrapper", (4, 3, 9, 0.0), {"num_heads": 3}, 123,
                                        other_batch),
    "MultiHeadAttention/other": ("MultiHeadAttention", (4, 9, 9, 0.0), {"num_heads": 3}, 123, other_batch),
}
