import math

import torch
import torch.nn.functional as F
from torch import nn


class SelfAttention_v2(nn.Module):
    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)

    def forward(self, x):
        layers = (self.W_query, self.W_key, self.W_value)
        weight = torch.cat([layer.weight for layer in layers])  # (3 * d_out, d_in): one projection
        bias = None if layers[0].bias is None else torch.cat([layer.bias for layer in layers])
        queries, keys, values = F.linear(x, weight, bias).chunk(3, dim=-1)
        attn = torch.softmax(queries @ keys.mT / math.sqrt(keys.shape[-1]), dim=-1)
        return attn @ values
