import torch
from torch import nn


class SelfAttention_v1(nn.Module):
    NAMES = ("W_query", "W_key", "W_value")  # creation order matters under a seed

    def __init__(self, d_in, d_out):
        super().__init__()
        for name in self.NAMES:
            self.register_parameter(name, nn.Parameter(torch.rand(d_in, d_out)))

    def forward(self, x):
        queries, keys, values = (x @ getattr(self, name) for name in self.NAMES)
        scores = queries @ keys.transpose(-2, -1)
        weights = torch.softmax(scores / keys.shape[-1] ** 0.5, dim=-1)
        return weights @ values
