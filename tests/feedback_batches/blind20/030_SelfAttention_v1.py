import math

import torch
from torch import nn


class SelfAttention_v1(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        for name in ("W_query", "W_key", "W_value"):  # this order gives the book's numbers
            setattr(self, name, nn.Parameter(torch.rand(d_in, d_out)))

    def forward(self, x):
        q, k, v = (x @ w for w in (self.W_query, self.W_key, self.W_value))
        scores = q @ k.mT / math.sqrt(k.shape[-1])
        return torch.special.softmax(scores, dim=-1) @ v
