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
        # an additive mask: 0 where a query may look, -inf on the future
        future_bias = torch.full((context_length, context_length), float("-inf")).triu(1)
        self.register_buffer("future_bias", future_bias)

    def forward(self, x):
        T = x.size(1)
        q, k, v = self.W_query(x), self.W_key(x), self.W_value(x)
        scores = torch.bmm(q, k.transpose(1, 2)) / math.sqrt(k.size(-1))
        scores = scores + self.future_bias[:T, :T]
        weights = self.dropout(torch.softmax(scores, dim=-1))
        return torch.bmm(weights, v)
