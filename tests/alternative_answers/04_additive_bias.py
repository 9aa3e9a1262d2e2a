"""An additive float mask (0 and -inf) of shape (1, 1, L, L) registered as `attn_bias`; the
scale computed once with math.sqrt; split with torch.chunk views; keyword construction."""

import math

import torch
import torch.nn.functional as F
from torch import nn


def wrapper_with_2d_output(d_in, context_length, dropout):
    return MultiHeadAttentionWrapper(d_in=d_in, d_out=1, context_length=context_length,  # noqa: F821
                                     dropout=dropout, num_heads=2)


class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError(f"num_heads={num_heads} does not divide d_out={d_out}")
        self.h = num_heads
        self.scale = 1 / math.sqrt(d_out // num_heads)
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.drop = nn.Dropout(dropout)
        bias = torch.full((context_length, context_length), float("-inf")).triu(1)
        self.register_buffer("attn_bias", bias[None, None])

    def forward(self, x):
        b, t, _ = x.shape
        heads = [torch.stack(layer(x).chunk(self.h, dim=-1), dim=1)
                 for layer in (self.W_query, self.W_key, self.W_value)]  # (b, h, t, hd) each
        q, k, v = heads
        weights = F.softmax(q @ k.transpose(-1, -2) * self.scale + self.attn_bias[..., :t, :t], dim=-1)
        context = self.drop(weights) @ v  # (b, h, t, hd)
        return self.out_proj(context.transpose(1, 2).flatten(2))
