"""Heads in einsum notation: the scores "bhqd,bhkd->bhqk", a boolean `future` buffer applied
with torch.where and the dtype's lowest value, heads merged by unbinding and concatenating."""

import torch
from torch import nn


def split_heads(x, num_heads):
    if x.shape[-1] % num_heads != 0:
        raise ValueError(f"the {x.shape[-1]} features must split evenly into {num_heads} heads")
    return x.unflatten(2, (num_heads, x.shape[-1] // num_heads)).transpose(1, 2)


def merge_heads(x):
    return torch.cat(x.unbind(dim=1), dim=-1)


class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError("d_out must be divisible by num_heads")
        self.num_heads = num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("future", torch.ones(context_length, context_length, dtype=torch.bool).triu(1))

    def forward(self, x):
        t = x.shape[1]
        q, k, v = (split_heads(layer(x), self.num_heads) for layer in (self.W_query, self.W_key, self.W_value))
        scores = torch.einsum("bhqd,bhkd->bhqk", q, k) / q.shape[-1] ** 0.5
        scores = torch.where(self.future[:t, :t], torch.finfo(scores.dtype).min, scores)
        weights = self.dropout(scores.softmax(dim=-1))
        return self.out_proj(merge_heads(torch.einsum("bhqk,bhkd->bhqd", weights, v)))
