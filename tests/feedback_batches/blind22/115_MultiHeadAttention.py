import math

import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()

        if d_out % num_heads:
            raise ValueError(f"d_out ({d_out}) is not a multiple of num_heads ({num_heads})")
        self.num_heads = num_heads
        self.head_dim = d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length, dtype=torch.uint8), 1))

    def _heads(self, t):
        b, T, _ = t.shape
        return t.unsqueeze(2).view(b, T, self.num_heads, self.head_dim).transpose(1, 2)

    def forward(self, x):
        T = x.shape[1]
        q, k, v = self._heads(self.W_query(x)), self._heads(self.W_key(x)), self._heads(self.W_value(x))
        scores = torch.matmul(q, k.transpose(-1, -2)) * self.head_dim ** -0.5
        scores.masked_fill_(self.mask[:T, :T].bool(), float("-inf"))  # in place on a fresh tensor
        weights = self.dropout(scores.softmax(dim=-1))
        return self.out_proj((weights @ v).transpose(1, 2).flatten(2))
