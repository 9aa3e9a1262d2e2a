import math

import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    """Causal multi-head attention with one projection split across the heads."""

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads:
            raise ValueError(f"d_out={d_out} must be divisible by num_heads={num_heads}")
        self.num_heads = num_heads
        self.head_dim = d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("future", ~torch.ones(context_length, context_length, dtype=torch.bool).tril())

    def forward(self, x):
        T = x.shape[1]
        # (q / sqrt(hd)) . k == (q . k) / sqrt(hd): scale the queries once instead of every score
        queries = split_heads(self.W_query(x), self.num_heads).div(math.sqrt(self.head_dim))
        keys = split_heads(self.W_key(x), self.num_heads)
        values = split_heads(self.W_value(x), self.num_heads)
        scores = torch.matmul(queries, keys.transpose(-1, -2)).masked_fill(self.future[:T, :T], -math.inf)
        weights = self.dropout(scores.softmax(dim=-1))  # (b, h, T, T)
        return self.out_proj(merge_heads(weights @ values))
