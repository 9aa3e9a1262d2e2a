"""swapaxes and flatten for the heads; a (1, L, L) boolean mask buffer; einsum with named
dimensions for every head at once; GPT-2's arguments from a dictionary."""

import torch
from torch import nn


def split_heads(x, num_heads):
    b, t, d = x.shape
    if d % num_heads != 0:
        raise ValueError(f"{d} % {num_heads} != 0")
    return x.view(b, t, num_heads, -1).swapaxes(1, 2)


def merge_heads(x):
    return x.swapaxes(1, 2).flatten(2)


class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError("d_out must be a multiple of num_heads")
        self.num_heads = num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.ones(1, context_length, context_length).triu(1).bool())

    def forward(self, x):
        t = x.size(1)
        q, k, v = (split_heads(layer(x), self.num_heads) for layer in (self.W_query, self.W_key, self.W_value))
        s = torch.einsum("bhtd,bhsd->bhts", q, k) / q.size(-1) ** 0.5
        s = s.masked_fill(self.mask[:, :t, :t], float("-inf"))
        return self.out_proj(merge_heads(torch.einsum("bhts,bhsd->bhtd", self.dropout(s.softmax(-1)), v)))


def gpt2_small_attention():
    return MultiHeadAttention(**{"d_in": 768, "d_out": 768, "context_length": 1024, "dropout": 0.0, "num_heads": 12})
