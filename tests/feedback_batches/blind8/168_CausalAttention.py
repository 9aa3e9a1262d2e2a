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
        position = torch.arange(context_length)
        self.register_buffer("mask", position.unsqueeze(0) > position.unsqueeze(1))

    def forward(self, x):
        num_tokens = x.shape[1]
        queries, keys, values = self.W_query(x), self.W_key(x), self.W_value(x)
        # beta=0: the input tensor is ignored, only alpha * (Q @ K^T) remains
        scores = torch.baddbmm(queries.new_empty(x.shape[0], num_tokens, num_tokens), queries,
                               keys.transpose(1, 2), beta=0.0, alpha=1.0 / math.sqrt(keys.shape[-1]))
        scores = torch.where(self.mask[:num_tokens, :num_tokens], float("-inf"), scores)
        weights = self.dropout(torch.softmax(scores, dim=-1))
        return torch.bmm(weights, values)
