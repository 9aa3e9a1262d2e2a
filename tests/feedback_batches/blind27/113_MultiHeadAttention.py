import math

import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    """Causal multi-head attention with one projection split across the heads."""

    NEG_INF = float("-inf")

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError(f"num_heads={num_heads} does not divide d_out={d_out}")
        self.d_out, self.num_heads = d_out, num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.softmax = nn.Softmax(dim=-1)
        self.register_buffer("mask", torch.ones(context_length, context_length).triu(diagonal=1).bool())

    @staticmethod
    def heads_first(t, num_heads):
        """(b, T, d_out) -> (b, h, T, hd): unflatten the features, then swap tokens and heads."""
        return t.unflatten(-1, (num_heads, -1)).swapaxes(1, 2)

    @staticmethod
    def heads_last(t):
        """(b, h, T, hd) -> (b, T, h * hd)."""
        return t.swapaxes(1, 2).flatten(-2)

    def forward(self, x):
        num_tokens = x.shape[1]
        q, k, v = (self.heads_first(layer(x), self.num_heads) for layer in (self.W_query, self.W_key, self.W_value))
        scores = q @ k.swapaxes(-1, -2) / math.sqrt(k.shape[-1])
        scores = scores.masked_fill(self.mask[:num_tokens, :num_tokens], self.NEG_INF)
        return self.out_proj(self.heads_last(self.dropout(self.softmax(scores)) @ v))
