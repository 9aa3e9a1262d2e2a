import math

import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    """Causal multi-head attention with one projection split across the heads."""

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError(f"num_heads={num_heads} does not divide d_out={d_out}")
        self.num_heads = num_heads
        self.head_dim = d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("causal_mask", torch.ones(context_length, context_length, dtype=torch.bool).triu_(1))

    def forward(self, x):
        T = x.size(1)
        q, k, v = (split_heads(proj(x), self.num_heads) for proj in (self.W_query, self.W_key, self.W_value))
        scores = torch.einsum("bhqd,bhkd->bhqk", q, k) / math.sqrt(self.head_dim)
        # HF transformers fills with the dtype's lowest finite value instead of -inf
        scores = scores.masked_fill(self.causal_mask[:T, :T], torch.finfo(scores.dtype).min)
        weights = self.dropout(torch.softmax(scores, dim=-1))
        return self.out_proj(merge_heads(torch.einsum("bhqk,bhkd->bhqd", weights, v)))
