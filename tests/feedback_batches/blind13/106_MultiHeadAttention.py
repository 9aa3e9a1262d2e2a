import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    """Causal multi-head attention with one projection split across the heads."""

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError(f"d_out={d_out} is not divisible by num_heads={num_heads}")
        self.num_heads = num_heads
        self.head_dim = d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.ones(context_length, context_length, dtype=torch.bool).triu(1))

    def forward(self, x):
        b, T, _ = x.shape

        def heads(t):  # (b, T, d_out) -> (b, h, T, hd)
            return t.reshape(b, self.num_heads, T, self.head_dim)

        q, k, v = heads(self.W_query(x)), heads(self.W_key(x)), heads(self.W_value(x))
        scores = q @ k.transpose(-2, -1) / self.head_dim ** 0.5
        scores = scores.masked_fill(self.mask[:T, :T], -torch.inf)
        weights = self.dropout(torch.softmax(scores, -1))
        return (weights @ v).reshape(b, T, -1)
