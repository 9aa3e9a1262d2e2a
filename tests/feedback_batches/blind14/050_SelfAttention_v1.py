import math

import torch
import torch.nn as nn


class SelfAttention_v1(nn.Module):
    """Self-attention with raw weight matrices."""

    def __init__(self, d_in, d_out):
        super().__init__()
        self.d_in = d_in
        # one container for the three projections
        self.W = nn.ParameterDict({
            "query": nn.Parameter(torch.rand(d_in, d_out)),
            "key": nn.Parameter(torch.rand(d_in, d_out)),
            "value": nn.Parameter(torch.rand(d_in, d_out)),
        })

    def forward(self, x):
        q, k, v = (x @ self.W[name] for name in ("query", "key", "value"))
        weights = torch.softmax(q @ k.T / math.sqrt(self.d_in), dim=-1)
        return weights @ v
