"""A lecture-style head: key, query and value created in that order, `wei` scaled by
head_size ** -0.5; scores by broadcasting; the copy through .data."""

import torch.nn as nn
import torch.nn.functional as F


def scaled_dot_product_scores(queries, keys):
    products = queries.unsqueeze(-2) * keys.unsqueeze(-3)  # (..., T_q, T_k, d_k)
    return products.sum(dim=-1) * keys.size(-1) ** -0.5


class SelfAttention_v2(nn.Module):
    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)

    def forward(self, x):
        k = self.W_key(x)
        q = self.W_query(x)
        wei = q @ k.transpose(-2, -1) * k.shape[-1] ** -0.5
        wei = F.softmax(wei, dim=-1)
        v = self.W_value(x)
        return wei @ v


def copy_v2_weights_into_v1(sa_v2, sa_v1):
    sa_v1.W_query.data = sa_v2.W_query.weight.data.T.clone()
    sa_v1.W_key.data = sa_v2.W_key.weight.data.T.clone()
    sa_v1.W_value.data = sa_v2.W_value.weight.data.T.clone()
