import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    """Causal multi-head attention with one projection split across the heads."""

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError(f"d_out={d_out} must be divisible by num_heads={num_heads}")
        self.num_heads = num_heads
        self.head_dim = d_out // num_heads
        self.d_out = d_out
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.ones(context_length, context_length, dtype=torch.bool).triu(diagonal=1))

    def forward(self, x):
        T = x.shape[1]
        q, k, v = (split_heads(layer(x), self.num_heads) for layer in (self.W_query, self.W_key, self.W_value))
        scores = q @ k.transpose(2, 3) / self.head_dim ** 0.5
        weights = torch.softmax(scores.masked_fill(self.mask[:T, :T], float("-inf")), dim=-1)
        return self.dropout(merge_heads(weights @ v))
