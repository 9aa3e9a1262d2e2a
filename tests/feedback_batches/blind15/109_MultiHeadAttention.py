import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    """Causal multi-head attention with one projection split across the heads."""

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads:
            raise ValueError(f"num_heads={num_heads} does not divide d_out={d_out}")
        self.num_heads, self.head_dim, self.d_out = num_heads, d_out // num_heads, d_out
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out, bias=False)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length, dtype=torch.bool), diagonal=1))

    def forward(self, x):
        b, T, _ = x.shape
        q = split_heads(self.W_query(x), self.num_heads)
        k = split_heads(self.W_key(x), self.num_heads)
        v = split_heads(self.W_value(x), self.num_heads)
        scores = (q @ k.mT / self.head_dim ** 0.5).masked_fill(self.mask[:T, :T], float("-inf"))
        context = self.dropout(scores.softmax(-1)) @ v  # (b, h, T, hd)
        return self.out_proj(context.reshape(b, T, self.d_out))
