import functools

import torch
from torch import nn


class CausalAttention(nn.Module):
    PROJECTIONS = ("W_query", "W_key", "W_value")  # creation order

    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        make = functools.partial(nn.Linear, d_in, d_out, bias=qkv_bias)
        for name in self.PROJECTIONS:
            setattr(self, name, make())
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1))

    def forward(self, x):
        b, num_tokens, _ = x.shape
        q, k, v = (getattr(self, name)(x) for name in self.PROJECTIONS)
        scores = q @ k.transpose(1, 2)
        scores = scores.masked_fill(self.mask.bool()[:num_tokens, :num_tokens], -torch.inf)
        weights = torch.softmax(scores / k.shape[-1] ** 0.5, dim=-1)
        return self.dropout(weights) @ v
