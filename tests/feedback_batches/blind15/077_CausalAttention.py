import math

import torch
from torch import nn


class CausalAttention(nn.Module):
    """Single-head causal self-attention over a batch."""

    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        hidden = torch.ones(context_length, context_length, dtype=torch.bool).triu(diagonal=1)
        self.register_buffer("mask", hidden)

    def _weights(self, queries, keys):
        """One sequence: (T, d) and (T, d) -> causal weights (T, T)."""
        num_tokens = queries.shape[0]
        scores = queries @ keys.T / math.sqrt(keys.shape[-1])
        scores = scores.masked_fill(self.mask[:num_tokens, :num_tokens], float("-inf"))
        return scores.softmax(dim=-1)

    def forward(self, x):
        queries, keys, values = self.W_query(x), self.W_key(x), self.W_value(x)
        # written for one sequence, mapped over the batch (JAX style); the sequences never meet
        weights = torch.vmap(self._weights)(queries, keys)  # (b, T, T)
        weights = self.dropout(weights)
        return weights @ values  # (b, T, d_out)
