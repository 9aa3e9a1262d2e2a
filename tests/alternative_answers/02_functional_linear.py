"""F.linear with the layers' own weight and bias, swapaxes for the keys, the copy as a loop over
named_parameters."""

import torch
import torch.nn.functional as F
from torch import nn


def scaled_dot_product_scores(queries, keys):
    return queries @ keys.swapaxes(-1, -2) / keys.shape[-1] ** 0.5


class SelfAttention_v1(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.W_query = nn.Parameter(torch.rand(d_in, d_out))
        self.W_key = nn.Parameter(torch.rand(d_in, d_out))
        self.W_value = nn.Parameter(torch.rand(d_in, d_out))

    def forward(self, x):
        queries = F.linear(x, self.W_query.T)
        keys = F.linear(x, self.W_key.T)
        values = F.linear(x, self.W_value.T)
        return F.softmax(queries @ keys.swapaxes(0, 1) / keys.shape[1] ** 0.5, dim=1) @ values


class SelfAttention_v2(nn.Module):
    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, qkv_bias)

    def forward(self, x):
        q, k, v = (F.linear(x, layer.weight, layer.bias) for layer in (self.W_query, self.W_key, self.W_value))
        return F.softmax(q @ k.swapaxes(0, 1) / k.shape[1] ** 0.5, dim=1) @ v


def copy_v2_weights_into_v1(sa_v2, sa_v1):
    with torch.no_grad():
        for name, parameter in sa_v1.named_parameters():
            parameter.copy_(getattr(sa_v2, name).weight.T)
