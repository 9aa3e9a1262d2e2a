import math
from typing import NamedTuple

import torch
from torch import nn


class Projections(NamedTuple):
    queries: torch.Tensor
    keys: torch.Tensor
    values: torch.Tensor


class CausalAttention(nn.Module):
    """Single-head causal self-attention over a batch."""

    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        for name in ("W_query", "W_key", "W_value"):  # this order: the seed decides each one's weights
            self.add_module(name, nn.Linear(d_in, d_out, bias=qkv_bias))
        self.dropout = nn.Dropout(dropout)
        # an additive mask: 0 where a key is visible, -inf where it lies in the future
        future_bias = torch.full((context_length, context_length), -math.inf).triu(1)
        self.register_buffer("future_bias", future_bias)

    def project(self, x) -> Projections:
        return Projections(self.W_query(x), self.W_key(x), self.W_value(x))

    def forward(self, x):
        T = x.size(-2)
        p = self.project(x)
        scores = torch.einsum("b q d, b k d -> b q k", p.queries, p.keys) / math.sqrt(p.keys.size(-1))
        scores = scores + self.future_bias[:T, :T]
        weights = self.dropout(scores.softmax(dim=-1))
        return torch.einsum("b q k, b k d -> b q d", weights, p.values)
