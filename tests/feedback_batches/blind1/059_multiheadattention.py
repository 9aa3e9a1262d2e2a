import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    """Causal multi-head attention; the three projections run as one fused F.linear call."""

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError(f"d_out ({d_out}) must be divisible by num_heads ({num_heads})")
        self.num_heads = num_heads
        self.head_dim = d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer(
            "causal_mask", torch.ones(context_length, context_length, dtype=torch.bool).triu(1))

    def forward(self, x):
        b, T, _ = x.shape
        weight = torch.cat([self.W_query.weight, self.W_key.weight, self.W_value.weight])
        bias = None
        if self.W_query.bias is not None:
            bias = torch.cat([self.W_query.bias, self.W_key.bias, self.W_value.bias])
        qkv = F.linear(x, weight, bias)  # (b, T, 3 * d_out)
        qkv = qkv.view(b, T, 3, self.num_heads, self.head_dim).permute(2, 0, 3, 1, 4)
        q, k, v = qkv.unbind(0)  # each (b, h, T, hd)
        scores = (q @ k.transpose(-2, -1)) / math.sqrt(self.head_dim)
        scores = scores.masked_fill(self.causal_mask[:T, :T], float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-1))
        context = (weights @ v).transpose(1, 2).reshape(b, T, -1)
        return self.out_proj(context)
