import functools

import torch
from torch import nn


class SelfAttention_v2(nn.Module):
    """Self-attention with nn.Linear projections."""

    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        projection = functools.partial(nn.Linear, d_in, d_out, bias=qkv_bias)
        self.W_query = projection()  # query, key, value: the order the seed expects
        self.W_key = projection()
        self.W_value = projection()

    def forward(self, x):
        queries, keys, values = self.W_query(x), self.W_key(x), self.W_value(x)
        # addmm: beta * start + alpha * (queries @ keys^T); beta=0 ignores the start tensor
        start = queries.new_empty(queries.shape[0], keys.shape[0])
        scores = torch.addmm(start, queries, keys.T, beta=0, alpha=keys.shape[-1] ** -0.5)
        return torch.softmax(scores, dim=-1) @ values
