"""One nn.Linear of 3 * d_out features computes queries, keys and values at once (GPT-2's
c_attn), split afterwards; the copy reads the fused weight a third at a time."""

import torch
from torch import nn


class SelfAttention_v2(nn.Module):
    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.d_out = d_out
        self.c_attn = nn.Linear(d_in, 3 * d_out, bias=qkv_bias)

    def forward(self, x):
        queries, keys, values = self.c_attn(x).split(self.d_out, dim=-1)
        weights = torch.softmax(queries @ keys.T / self.d_out**0.5, dim=-1)
        return weights @ values


def copy_v2_weights_into_v1(sa_v2, sa_v1):
    w_query, w_key, w_value = sa_v2.c_attn.weight.detach().chunk(3, dim=0)
    with torch.no_grad():
        sa_v1.W_query.copy_(w_query.T)
        sa_v1.W_key.copy_(w_key.T)
        sa_v1.W_value.copy_(w_value.T)
