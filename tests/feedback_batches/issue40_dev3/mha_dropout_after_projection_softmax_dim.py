import math
import torch
import torch.nn.functional as F
from torch import nn


class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError(f"d_out ({d_out}) must be divisible by num_heads ({num_heads})")
        self.h = num_heads
        self.hd = d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.p = dropout
        self.register_buffer("causal", torch.ones(context_length, context_length, dtype=torch.bool).tril())

    def forward(self, x):
        b, t, _ = x.shape
        q, k, v = (proj(x).view(b, t, self.h, self.hd).permute(0, 2, 1, 3)
                   for proj in (self.W_query, self.W_key, self.W_value))
        s = (q @ k.transpose(-1, -2)) / math.sqrt(self.hd)
        s = s.masked_fill(~self.causal[:t, :t], float("-inf"))
        w = F.softmax(s, dim=-2)
        ctx = (w @ v).permute(0, 2, 1, 3).reshape(b, t, self.h * self.hd)
        return F.dropout(self.out_proj(ctx), p=self.p, training=self.training)
