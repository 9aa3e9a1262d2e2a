"""The book's exercise 3.1 solution: v1's parameters replaced by new nn.Parameters that hold v2's
transposed weights; math.sqrt for the scale."""

import math

import torch
import torch.nn as nn


def scaled_dot_product_scores(queries, keys):
    return torch.matmul(queries, keys.transpose(-2, -1)) / math.sqrt(keys.shape[-1])


class SelfAttention_v1(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.d_out = d_out
        self.W_query = nn.Parameter(torch.rand(d_in, d_out))
        self.W_key = nn.Parameter(torch.rand(d_in, d_out))
        self.W_value = nn.Parameter(torch.rand(d_in, d_out))

    def forward(self, x):
        keys = x @ self.W_key
        queries = x @ self.W_query
        values = x @ self.W_value
        attn_scores = queries @ keys.T  # omega
        attn_weights = torch.softmax(attn_scores / math.sqrt(self.d_out), dim=-1)
        context_vec = attn_weights @ values
        return context_vec


def copy_v2_weights_into_v1(sa_v2, sa_v1):
    sa_v1.W_query = torch.nn.Parameter(sa_v2.W_query.weight.T)
    sa_v1.W_key = torch.nn.Parameter(sa_v2.W_key.weight.T)
    sa_v1.W_value = torch.nn.Parameter(sa_v2.W_value.weight.T)
