import math

import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        self.num_heads, remainder = num_heads, d_out % num_heads
        if remainder:
            raise ValueError(f"d_out={d_out} must be divisible by num_heads={num_heads}")
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        steps = torch.arange(context_length)
        self.register_buffer("causal", steps.unsqueeze(1) < steps.unsqueeze(0))

    def _heads(self, t):
        b, T, d = t.shape
        return t.reshape(b, T, self.num_heads, d // self.num_heads).transpose(1, 2)

    def forward(self, x):
        b, T, _ = x.shape
        q, k, v = (self._heads(layer(x)) for layer in (self.W_query, self.W_key, self.W_value))
        scores = torch.einsum("bhqd,bhkd->bhqk", q, k) / math.sqrt(q.shape[-1])
        scores = torch.where(self.causal[:T, :T], float("-inf"), scores)
        weights = self.dropout(scores.softmax(-1))
        context = torch.einsum("bhqk,bhkd->bqhd", weights, v).reshape(b, T, -1)  # heads side by side
        return self.out_proj(context)
