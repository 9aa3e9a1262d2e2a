import math

import torch
import torch.nn as nn


class MultiHeadAttention(nn.Module):
    """Causal multi-head attention with one projection split across the heads."""

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        head_dim, rest = divmod(d_out, num_heads)
        if rest:
            raise ValueError(f"num_heads={num_heads} does not divide d_out={d_out}")
        self.num_heads, self.head_dim = num_heads, head_dim
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        lower = torch.ones(context_length, context_length).tril()
        self.register_buffer("visible", lower.bool())  # True where the query may look

    def forward(self, x):
        T = x.shape[1]

        def heads(t):  # (b, T, d_out) -> (b, h, T, hd)
            return t.unflatten(-1, (self.num_heads, self.head_dim)).transpose(1, 2)

        q, k, v = heads(self.W_query(x)), heads(self.W_key(x)), heads(self.W_value(x))
        scores = torch.matmul(q / math.sqrt(self.head_dim), k.transpose(-1, -2))  # (b, h, T, T)
        scores = torch.where(self.visible[:T, :T], scores, torch.finfo(scores.dtype).min)
        weights = self.dropout(scores.softmax(dim=-1))
        context = torch.matmul(weights, v).transpose(1, 2).flatten(2)  # (b, T, d_out)
        return self.out_proj(context)
