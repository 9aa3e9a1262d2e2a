import torch
from torch import nn


class SelfAttention_v2(nn.Module):
    """Self-attention with nn.Linear projections."""

    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Sequential(nn.Linear(d_in, d_out, bias=qkv_bias))
        self.W_key = nn.Sequential(nn.Linear(d_in, d_out, bias=qkv_bias))
        self.W_value = nn.Sequential(nn.Linear(d_in, d_out, bias=qkv_bias))
        self.scale = d_out ** -0.5

    def forward(self, x):
        q, k = self.W_query(x), self.W_key(x)
        v = self.W_value(x) * self.scale  # scaled by 1/sqrt(d_k)
        return torch.softmax(q @ k.T, dim=-1) @ v
