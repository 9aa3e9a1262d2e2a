import math

import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError(f"d_out={d_out} must be divisible by num_heads={num_heads}")
        self.num_heads = num_heads
        self.head_dim = d_in // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        b, T, _ = x.shape
        q = self.W_query(x).view(b, T, self.num_heads, -1).transpose(1, 2)
        k = self.W_key(x).view(b, T, self.num_heads, -1).transpose(1, 2)
        v = self.W_value(x).view(b, T, self.num_heads, -1).transpose(1, 2)
        future = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
        scores = (q @ k.transpose(-2, -1)) / math.sqrt(self.head_dim)
        weights = self.dropout(torch.softmax(scores.masked_fill(future, -math.inf), dim=-1))
        context = (weights @ v).transpose(1, 2).reshape(b, T, -1)
        return self.out_proj(context)
