import torch
from torch import nn


class SelfAttention_v2(nn.Module):
    """Self-attention with nn.Linear projections."""

    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.proj = nn.ModuleDict({
            "query": nn.Linear(d_in, d_out, bias=qkv_bias),
            "key": nn.Linear(d_in, d_out, bias=qkv_bias),
            "value": nn.Linear(d_in, d_out, bias=qkv_bias),
        })

    def forward(self, x):
        q, k, v = (self.proj[name](x) for name in ("query", "key", "value"))
        return torch.softmax(q @ k.T / k.shape[-1] ** 0.5, dim=-1) @ v
