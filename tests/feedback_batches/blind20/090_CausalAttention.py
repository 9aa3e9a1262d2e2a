import functools

import torch
import torch.nn.functional as F
from torch import nn


class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        projection = functools.partial(nn.Linear, d_in, d_out, bias=qkv_bias)
        self.W_query = projection()
        self.W_key = projection()
        self.W_value = projection()
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("hidden", torch.tril(torch.ones(context_length, context_length)) == 0)
        self.scale = d_out ** -0.5
        self.context_length = context_length

    def forward(self, x):
        batch, num_tokens, _ = x.shape
        if num_tokens > self.context_length:
            raise ValueError(f"{num_tokens} tokens, but the context holds {self.context_length}")
        queries, keys, values = self.W_query(x), self.W_key(x), self.W_value(x)
        scores = torch.matmul(queries, keys.transpose(1, 2))
        scores = scores.masked_fill(self.hidden[:num_tokens, :num_tokens], float("-inf")) * self.scale
        weights = F.softmax(scores, dim=-1)
        return torch.matmul(self.dropout(weights), values)
