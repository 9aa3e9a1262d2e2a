import torch
import torch.nn as nn


class SelfAttention_v1(nn.Module):
    """Self-attention with raw weight matrices."""

    def __init__(self, d_in, d_out):
        super().__init__()
        for name in ("W_query", "W_key", "W_value"):  # the order fixes which random numbers each gets
            self.register_parameter(name, nn.Parameter(torch.rand(d_in, d_out)))

    def forward(self, x):
        stacked = torch.stack((self.W_query, self.W_key, self.W_value))  # (3, d_in, d_out)
        queries, keys, values = torch.matmul(x, stacked).unbind(0)  # x broadcast over the three
        scale = keys.shape[-1] ** -0.5
        weights = torch.softmax((queries @ keys.mT) * scale, dim=-1)  # (T, T)
        return weights @ values
