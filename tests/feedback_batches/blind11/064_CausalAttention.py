import torch
from torch import nn


class _QKVBase(nn.Module):
    """Projections shared by my attention modules (created query, key, value)."""

    def __init__(self, d_in, d_out, dropout, qkv_bias):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)

    def project(self, x):
        return self.W_query(x), self.W_key(x), self.W_value(x)


class CausalAttention(_QKVBase):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__(d_in, d_out, dropout, qkv_bias)
        visible = torch.ones(context_length, context_length, dtype=torch.bool).tril()
        self.register_buffer("visible", visible)

    def forward(self, x):
        n = x.shape[-2]
        q, k, v = self.project(x)
        scores = torch.matmul(q, k.transpose(-1, -2)) / k.shape[-1] ** 0.5
        scores = scores.masked_fill(~self.visible[:n, :n], float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-1))
        return torch.matmul(weights, v)
