"""Chains of products with torch.linalg.multi_dot; torch.mm and .t() in v2; the bias passed
positionally to nn.Linear."""

import torch
from torch import nn


class SelfAttention_v1(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.W_query = nn.Parameter(torch.rand(d_in, d_out))
        self.W_key = nn.Parameter(torch.rand(d_in, d_out))
        self.W_value = nn.Parameter(torch.rand(d_in, d_out))

    def forward(self, x):
        scores = torch.linalg.multi_dot([x, self.W_query, self.W_key.T, x.T])
        weights = torch.softmax(scores / self.W_key.shape[1] ** 0.5, dim=-1)
        return torch.linalg.multi_dot([weights, x, self.W_value])


class SelfAttention_v2(nn.Module):
    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, qkv_bias)

    def forward(self, x):
        q = self.W_query(x)
        k = self.W_key(x)
        v = self.W_value(x)
        return torch.softmax(torch.mm(q, k.t()) * k.size(1) ** -0.5, -1).mm(v)
