"""The book's printed numbers (chapter 3), and the inputs the book computes them from.

The self-checks compare a student's answer with these values; no reference implementation is
needed, and none is here.
"""

from __future__ import annotations

import torch
from torch import nn

from ..example import your_journey_inputs
from .expectations import seed_weights

BOOK_SCORES_2 = [0.9544, 1.4950, 1.4754, 0.8434, 0.7070, 1.0865]
BOOK_WEIGHTS_2 = [0.1385, 0.2379, 0.2333, 0.1240, 0.1082, 0.1581]
BOOK_CONTEXT_1 = [0.4421, 0.5931, 0.5790]
BOOK_CONTEXT_2 = [0.4419, 0.6515, 0.5683]
BOOK_V1_SCORES_2 = [1.2705, 1.8524, 1.8111, 1.0795, 0.5577, 1.5440]  # seed 123, unscaled
BOOK_V1_SCALED_SCORES_2 = [0.8984, 1.3098, 1.2806, 0.7633, 0.3944, 1.0918]  # the same, divided by sqrt(2)
BOOK_SELF_ATTENTION_V1 = [[0.2996, 0.8053], [0.3061, 0.8210], [0.3058, 0.8203],
                          [0.2948, 0.7939], [0.2927, 0.7891], [0.2990, 0.8040]]
BOOK_SELF_ATTENTION_V2 = [[-0.0739, 0.0713], [-0.0748, 0.0703], [-0.0749, 0.0702],
                          [-0.0760, 0.0685], [-0.0763, 0.0679], [-0.0754, 0.0693]]
BOOK_CAUSAL_WEIGHTS_ROWS_1_2 = [[0.5517, 0.4483, 0.0, 0.0, 0.0, 0.0],
                                [0.3800, 0.3097, 0.3103, 0.0, 0.0, 0.0]]
BOOK_CAUSAL_ATTENTION = [[-0.4519, 0.2216], [-0.5874, 0.0058], [-0.6300, -0.0632],
                         [-0.5675, -0.0843], [-0.5526, -0.0981], [-0.5299, -0.1081]]
BOOK_WRAPPER = [[-0.4519, 0.2216, 0.4772, 0.1063], [-0.5874, 0.0058, 0.5891, 0.3257],
                [-0.6300, -0.0632, 0.6202, 0.3860], [-0.5675, -0.0843, 0.5478, 0.3589],
                [-0.5526, -0.0981, 0.5321, 0.3428], [-0.5299, -0.1081, 0.5077, 0.3493]]
BOOK_MULTI_HEAD = [[0.3190, 0.4858], [0.2943, 0.3897], [0.2856, 0.3593],
                   [0.2693, 0.3873], [0.2639, 0.3928], [0.2575, 0.4028]]
# The prefix means of torch.randn(4, 8, 2) under seed 42, batch 0 (the averaging walk-through).
SOURCE_PREFIX_MEANS = [[1.9269, 1.4873], [1.4138, -0.3091], [1.1687, -0.6176],
                       [0.8657, -0.8644], [0.5422, -0.3617], [0.3864, -0.5354]]
GPT2_SMALL_ATTENTION_PARAMETERS = 2_360_064


def book_batch() -> torch.Tensor:
    inputs = your_journey_inputs()
    return torch.stack((inputs, inputs))  # (2, 6, 3): the book's batch of two copies


def book_causal_scores() -> torch.Tensor:
    """The running example's scores with the book's SelfAttention_v2 weights (seed 789)."""
    seed_weights(789)
    w_query, w_key = nn.Linear(3, 2, bias=False), nn.Linear(3, 2, bias=False)
    inputs = your_journey_inputs()
    with torch.no_grad():
        return w_query(inputs) @ w_key(inputs).T  # (6, 6)


