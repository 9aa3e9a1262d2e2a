import math

import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        self._check_heads(d_out, num_heads)
        self.num_heads = num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        hidden = torch.ones(context_length, context_length, dtype=torch.bool).triu(1)
        self.register_buffer("hidden", hidden[None, None])  # (1, 1, L, L): broadcasts over batch and heads

    @staticmethod
    def _check_heads(d_out, num_heads):
        if d_out % num_heads:
            raise ValueError(f"d_out={d_out} must be divisible by num_heads={num_heads}")

    def forward(self, x):
        T = x.shape[1]
        q = split_heads(self.W_query(x), self.num_heads)
        k = split_heads(self.W_key(x), self.num_heads)
        v = split_heads(self.W_value(x), self.num_heads)
        scores = q @ k.transpose(-2, -1) / math.sqrt(k.shape[-1])
        scores = torch.where(self.hidden[..., :T, :T], float("-inf"), scores)
        weights = self.dropout(torch.softmax(scores, dim=-1))
        return self.out_proj(merge_heads(weights @ v))
