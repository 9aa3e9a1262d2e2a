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
        self.register_buffer("mask", torch.ones(context_length, context_length, dtype=torch.bool).triu(1))

    def forward(self, x):
        n = x.shape[1]
        keys = self.W_key(x)
        scores = self.W_query(x) @ keys.mT
        scores = scores.masked_fill(self.mask[:n, :n], float("-inf"))
        context = torch.softmax(scores, dim=-1) @ self.W_value(x)
        return self.dropout(context)
