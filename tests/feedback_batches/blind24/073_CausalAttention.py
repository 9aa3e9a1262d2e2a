import math

import torch
from torch import nn


class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer(
            "future", torch.ones(context_length, context_length, dtype=torch.bool).triu(1), persistent=True
        )
        self.inv_scale = 1.0 / math.sqrt(d_out)

    def forward(self, x):
        T = x.size(1)
        q = self.W_query(x) * self.inv_scale  # scale the queries, not the scores
        k = self.W_key(x)
        v = self.W_value(x)
        scores = torch.matmul(q, k.transpose(-1, -2))
        scores.masked_fill_(self.future.narrow(0, 0, T).narrow(1, 0, T), -math.inf)  # fresh tensor: in place is safe
        weights = self.dropout(scores.softmax(dim=-1))
        return torch.matmul(weights, v)
