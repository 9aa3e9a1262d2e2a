import torch
import torch.nn as nn


class MultiHeadAttention(nn.Module):
    """Causal multi-head attention with one projection split across the heads."""

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError(f"d_out={d_out} is not divisible by num_heads={num_heads}")
        self.num_heads, self.head_dim = num_heads, d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length, dtype=torch.bool), 1))

    def forward(self, x):
        b, T, d_out = x.shape[0], x.shape[1], self.num_heads * self.head_dim
        n = b * self.num_heads  # every head of every sequence as one batch entry
        q = self.W_query(x).reshape(n, T, self.head_dim)
        k = self.W_key(x).reshape(n, T, self.head_dim)
        v = self.W_value(x).reshape(n, T, self.head_dim)
        hidden = torch.triu(torch.ones(T, T), diagonal=1).bool()
        scores = torch.bmm(q, k.transpose(1, 2)).masked_fill(hidden, float("-inf"))
        weights = self.dropout(torch.softmax(scores / self.head_dim ** 0.5, dim=-1))
        context = torch.bmm(weights, v).reshape(b, self.num_heads, T, self.head_dim)
        return self.out_proj(context.transpose(1, 2).reshape(b, T, d_out))
