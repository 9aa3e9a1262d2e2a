"""Heads folded into the batch dimension, (b * h, T, hd), for torch.bmm, then unfolded; a wrapper
that stacks its heads' outputs and flattens them."""

import math

import torch
from torch import nn


class MultiHeadAttentionWrapper(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        self.heads = nn.ModuleList([CausalAttention(d_in, d_out, context_length, dropout, qkv_bias)  # noqa: F821
                                    for _ in range(num_heads)])

    def forward(self, x):
        return torch.stack([head(x) for head in self.heads], dim=-2).flatten(start_dim=-2)


class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError(f"d_out ({d_out}) must be divisible by num_heads ({num_heads})")
        self.num_heads = num_heads
        self.head_dim = d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("causal_mask", torch.ones(context_length, context_length, dtype=torch.bool).triu(1))

    def _fold(self, y, b, t):
        return y.view(b, t, self.num_heads, self.head_dim).transpose(1, 2).reshape(b * self.num_heads, t, self.head_dim)

    def forward(self, x):
        b, t, _ = x.shape
        q, k, v = (self._fold(layer(x), b, t) for layer in (self.W_query, self.W_key, self.W_value))
        scores = torch.bmm(q, k.transpose(1, 2)) / math.sqrt(self.head_dim)  # (b * h, t, t)
        scores = scores.masked_fill(self.causal_mask[:t, :t], float("-inf"))
        context = torch.bmm(self.dropout(torch.softmax(scores, dim=-1)), v)  # (b * h, t, hd)
        context = context.view(b, self.num_heads, t, self.head_dim).transpose(1, 2).reshape(b, t, -1)
        return self.out_proj(context)
