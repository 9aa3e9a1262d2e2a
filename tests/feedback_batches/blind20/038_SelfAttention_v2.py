import torch
from torch import nn


class SelfAttention_v2(nn.Module):
    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        for name in ("W_query", "W_key", "W_value"):
            self.add_module(name, nn.Linear(d_in, d_out, bias=qkv_bias))

    def forward(self, x):
        q, k, v = map(lambda layer: layer(x), (self.W_query, self.W_key, self.W_value))
        weights = torch.softmax(torch.mm(q, k.t()).div(k.size(1) ** 0.5), 1)
        return torch.mm(weights, v)
