import torch
from torch import nn


class SelfAttention_v2(nn.Module):
    """Self-attention with nn.Linear projections."""

    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.d_out = d_out

    def forward(self, x):
        scores = self.W_query(x) @ self.W_key(x).T / self.d_out
        return scores.softmax(dim=-2) @ self.W_value(x)
