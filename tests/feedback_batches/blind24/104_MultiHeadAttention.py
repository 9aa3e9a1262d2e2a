import math

import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError(f"d_out={d_out} is not a multiple of num_heads={num_heads}")
        self.num_heads = num_heads
        self.head_dim = d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.ones(context_length, context_length).triu(1).to(torch.bool))

    def _heads(self, t):
        # h equal slices of the features, stacked on a new head dim: (b, T, d_out) -> (b, h, T, hd)
        return torch.stack(t.tensor_split(self.num_heads, dim=-1), dim=1)

    def forward(self, x):
        T = x.shape[1]
        q, k, v = (self._heads(layer(x)) for layer in (self.W_query, self.W_key, self.W_value))
        scores = (q @ k.transpose(-2, -1)).masked_fill(self.mask[:T, :T], -math.inf)
        weights = self.dropout(torch.softmax(scores * self.head_dim ** -0.5, dim=-1))
        context = weights @ v  # (b, h, T, hd)
        merged = torch.cat([context[:, i] for i in range(self.num_heads)], dim=-1)
        return self.out_proj(merged)
