import math

import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()

        if d_out % num_heads != 0:
            raise ValueError(f"num_heads={num_heads} does not divide d_out={d_out}")
        self.num_heads, self.head_dim = num_heads, d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length, dtype=torch.bool), 1))

    def forward(self, x):
        b, T, _ = x.shape
        # the three projections stacked, then one view/permute cuts all of them into heads
        qkv = torch.stack((self.W_query(x), self.W_key(x), self.W_value(x)))  # (3, b, T, d_out)
        q, k, v = qkv.view(3, b, T, self.num_heads, self.head_dim).permute(0, 1, 3, 2, 4)  # 3 x (b, h, T, hd)
        scores = (q @ k.transpose(-2, -1)).masked_fill(self.mask[:T, :T], -math.inf)
        weights = self.dropout(torch.softmax(scores / math.sqrt(self.head_dim), dim=-1))
        context = (weights @ v).permute(0, 2, 1, 3).reshape(b, T, self.num_heads * self.head_dim)
        return self.out_proj(context)
