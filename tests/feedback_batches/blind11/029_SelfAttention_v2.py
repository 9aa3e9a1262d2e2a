import torch
from torch import nn


class SelfAttention_v2(nn.Module):
    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        make = lambda _: nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_query, self.W_key, self.W_value = map(make, range(3))  # built left to right

    def forward(self, x):
        q, k, v = (layer(x) for layer in (self.W_query, self.W_key, self.W_value))
        weights = torch.softmax(q @ k.transpose(-2, -1) / k.shape[-1] ** 0.5, dim=-1)
        return weights @ v
