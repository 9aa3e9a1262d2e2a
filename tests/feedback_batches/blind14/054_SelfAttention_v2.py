import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class SelfAttention_v2(nn.Module):
    """Self-attention with nn.Linear projections."""

    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)

    def forward(self, x):
        layers = (self.W_query, self.W_key, self.W_value)
        weight = torch.cat([layer.weight for layer in layers])  # (3 * d_out, d_in)
        bias = None if self.W_query.bias is None else torch.cat([layer.bias for layer in layers])
        queries, keys, values = F.linear(x, weight, bias).chunk(3, dim=-1)  # one product, three parts
        weights = F.softmax(queries @ keys.T / math.sqrt(keys.shape[-1]), dim=-1)
        return weights @ values
