import math

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
        # which keys each query may see (True = visible), for the longest sequence
        self.register_buffer("visible", torch.ones(context_length, context_length, dtype=torch.bool).tril())
        self.scale = 1.0 / math.sqrt(d_out)

    def forward(self, x):
        T = x.size(1)
        q = self.W_query(x) * self.scale  # scale the queries once instead of the T x T scores
        k = self.W_key(x)
        v = self.W_value(x)
        scores = torch.bmm(q, k.transpose(1, 2))  # (b, T, T), one matrix per sequence
        scores = torch.where(self.visible[:T, :T], scores, float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-1))
        return torch.bmm(weights, v)  # (b, T, d_out)
