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
        visible = torch.ones(context_length, context_length, dtype=torch.bool).tril()
        self.register_buffer("mask", ~visible)  # True where the key lies in the future

    def forward(self, x):
        T = x.shape[1]
        q, k, v = self.W_query(x), self.W_key(x), self.W_value(x)  # (b, T, d_out) each
        scores = torch.bmm(q, k.transpose(1, 2)) / math.sqrt(k.shape[-1])  # (b, T, T)
        scores = torch.where(self.mask[:T, :T], -torch.inf, scores)
        weights = self.dropout(torch.softmax(scores, dim=-1))
        return torch.bmm(weights, v)
