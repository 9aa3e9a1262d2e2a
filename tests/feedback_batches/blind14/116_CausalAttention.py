from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass(frozen=True)
class _HeadSizes:
    d_in: int
    d_out: int
    context_length: int


class CausalAttention(nn.Module):
    """Single-head causal self-attention over a batch."""

    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.sizes = _HeadSizes(d_in, d_out, context_length)
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", causal_mask(context_length))  # True = hidden

    def forward(self, x):
        T = x.shape[1]
        q, k, v = self.W_query(x), self.W_key(x), self.W_value(x)
        scores = torch.einsum("bqd,bkd->bqk", q, k)  # raw scores, one matrix per sequence
        scores = scores.masked_fill(self.mask[:T, :T], float("-inf"))  # already -inf stays -inf
        weights = masked_softmax(scores, self.sizes.d_out)  # scaled by sqrt(d_out), softmax per row
        return torch.einsum("bqk,bkd->bqd", self.dropout(weights), v)
