import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError(f"d_out ({d_out}) must be divisible by num_heads ({num_heads})")
        self.num_heads, self.head_dim = num_heads, d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        position = torch.arange(context_length)
        self.register_buffer("mask", position[None, :] > position[:, None])

    def _split(self, t):
        return t.unflatten(-1, (self.num_heads, self.head_dim)).transpose(1, 2)

    def forward(self, x):
        T = x.shape[1]
        q, k, v = self._split(self.W_query(x)), self._split(self.W_key(x)), self._split(self.W_value(x))
        scores = torch.einsum("bhqd,bhkd->bhqk", q, k) / self.head_dim ** 0.5
        scores = scores.masked_fill(self.mask[:T, :T], float("-inf"))
        weights = self.dropout(scores.softmax(dim=-1))
        context = torch.einsum("bhqk,bhkd->bqhd", weights, v).flatten(2)
        return self.out_proj(context)
