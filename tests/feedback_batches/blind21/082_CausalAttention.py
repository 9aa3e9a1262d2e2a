import torch
import torch.nn.functional as F
from torch import nn


class CausalAttention(nn.Module):
    """Single-head causal self-attention over a batch."""

    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.context_length = context_length
        self.scale = d_out ** -0.5
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", ~torch.ones(context_length, context_length, dtype=torch.bool).tril())

    def _weights(self, queries, keys):
        T = queries.shape[1]
        scores = (queries @ keys.transpose(1, 2)).masked_fill(self.mask[:T, :T], float("-inf"))
        return F.softmax(scores * self.scale, dim=-1)

    def forward(self, x):
        if x.shape[1] > self.context_length:
            raise ValueError(f"sequence of {x.shape[1]} tokens is longer than context_length={self.context_length}")
        weights = self._weights(self.W_query(x), self.W_key(x))
        return self.dropout(weights) @ self.W_value(x)
