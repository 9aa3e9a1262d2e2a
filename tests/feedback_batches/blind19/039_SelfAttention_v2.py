import functools

import torch
import torch.nn.functional as F
from torch import nn


class SelfAttention_v2(nn.Module):
    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        layer = functools.partial(nn.Linear, d_in, d_out, bias=qkv_bias)
        self.W_query, self.W_key, self.W_value = layer(), layer(), layer()  # built left to right

    def forward(self, x):
        def project(lin):
            return F.linear(x, lin.weight, lin.bias)

        queries, keys, values = map(project, (self.W_query, self.W_key, self.W_value))
        scores = torch.matmul(queries, keys.transpose(-2, -1)) * keys.size(-1) ** -0.5
        return F.softmax(scores, dim=-1) @ values
