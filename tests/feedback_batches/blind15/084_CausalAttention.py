import torch
from torch import nn


class CausalAttention(nn.Module):
    """Single-head causal self-attention over a batch."""

    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length, dtype=torch.bool), 1))

    def forward(self, x):
        b, T, d_in = x.shape
        flat = x.reshape(b * T, d_in)  # treat the batch as one sequence, as in SelfAttention_v2
        queries, keys, values = self.W_query(flat), self.W_key(flat), self.W_value(flat)
        n = flat.shape[0]
        scores = (queries @ keys.T).masked_fill(self.mask[:n, :n], float("-inf"))
        weights = self.dropout(torch.softmax(scores / keys.shape[-1] ** 0.5, dim=-1))
        return (weights @ values).reshape(b, T, -1)
