import math

import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    """Causal multi-head attention with one projection split across the heads."""

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError(f"d_out={d_out} must be divisible by num_heads={num_heads}")
        self.num_heads = num_heads
        self.head_dim = d_out // num_heads
        self.d_out = d_out
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("causal", torch.ones(context_length, context_length).triu(1).bool())

    def _fold(self, t):
        """(b, T, d_out) -> (b * h, T, hd): the heads folded into the batch, as fairseq does."""
        b, T, _ = t.shape
        return t.view(b, T, self.num_heads, self.head_dim).transpose(1, 2).reshape(b * self.num_heads, T, self.head_dim)

    def forward(self, x):
        b, T, _ = x.shape
        q, k, v = self._fold(self.W_query(x)), self._fold(self.W_key(x)), self._fold(self.W_value(x))
        scores = torch.bmm(q, k.transpose(1, 2)) / math.sqrt(self.head_dim)  # (b*h, T, T)
        scores = scores.masked_fill(self.causal[:T, :T], float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-1))
        context = torch.bmm(weights, v)  # (b*h, T, hd)
        context = context.view(b, self.num_heads, T, self.head_dim).transpose(1, 2).reshape(b, T, self.d_out)
        return self.out_proj(context)
