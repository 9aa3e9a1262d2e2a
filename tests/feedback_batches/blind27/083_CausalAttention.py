import math

import torch
from torch import nn


class CausalAttention(nn.Module):
    """Single-head causal self-attention over a batch."""

    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query, self.W_key, self.W_value = (nn.Linear(d_in, d_out, bias=qkv_bias),
                                                  nn.Linear(d_in, d_out, bias=qkv_bias),
                                                  nn.Linear(d_in, d_out, bias=qkv_bias))
        self.dropout = nn.Dropout(dropout)
        # an additive mask M: 0 where a query may look, -inf where the key comes later
        self.register_buffer("additive_mask", torch.full((context_length, context_length), float("-inf")).triu(1))

    def forward(self, x):
        """x: (b, T, d_in) with T <= context_length -> context vectors (b, T, d_out)."""
        T = x.size(1)
        queries, keys, values = self.W_query(x), self.W_key(x), self.W_value(x)
        scores = queries @ keys.transpose(-2, -1) / math.sqrt(keys.size(-1)) + self.additive_mask[:T, :T]
        return self.dropout(scores.softmax(dim=-1)) @ values
