"""Multi-head attention as a loop over slices of the projections, one head at a time, joined
with torch.cat; split and merge with reshape and permute; a wrapper built from a generator."""

import torch
from torch import nn


class MultiHeadAttentionWrapper(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        self.heads = nn.ModuleList(CausalAttention(d_in, d_out, context_length, dropout, qkv_bias)  # noqa: F821
                                   for _ in range(num_heads))

    def forward(self, x):
        return torch.cat(list(map(lambda head: head(x), self.heads)), dim=x.ndim - 1)


def split_heads(x, num_heads):
    b, t, d_out = x.shape
    if d_out % num_heads:
        raise ValueError(f"{d_out} features cannot be split into {num_heads} heads")
    return x.reshape(b, t, num_heads, d_out // num_heads).permute(0, 2, 1, 3)


def merge_heads(x):
    b, h, t, hd = x.shape
    return x.permute(0, 2, 1, 3).reshape(b, t, h * hd)


class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads:
            raise ValueError("d_out must be divisible by num_heads")
        self.num_heads, self.head_dim = num_heads, d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1).bool())

    def forward(self, x):
        t = x.shape[1]
        queries, keys, values = self.W_query(x), self.W_key(x), self.W_value(x)
        outputs = []
        for h in range(self.num_heads):
            part = slice(h * self.head_dim, (h + 1) * self.head_dim)
            scores = queries[..., part] @ keys[..., part].transpose(1, 2) / self.head_dim**0.5
            weights = torch.softmax(scores.masked_fill(self.mask[:t, :t], float("-inf")), dim=-1)
            outputs.append(self.dropout(weights) @ values[..., part])
        return self.out_proj(torch.cat(outputs, dim=-1))
