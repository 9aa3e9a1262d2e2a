import math
import torch
import torch.nn.functional as F
from torch import nn


class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError(f"d_out={d_out} must be divisible by num_heads={num_heads}")
        self.num_heads, self.head_dim = num_heads, d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1))

    def forward(self, x):
        b, n, _ = x.shape
        q = F.linear(x, self.W_query.weight).view(b, n, self.num_heads, self.head_dim).transpose(1, 2)
        k = F.linear(x, self.W_key.weight).view(b, n, self.num_heads, self.head_dim).transpose(1, 2)
        v = F.linear(x, self.W_value.weight).view(b, n, self.num_heads, self.head_dim).transpose(1, 2)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.head_dim)
        scores = scores.masked_fill(self.mask.bool()[:n, :n], float("-inf"))
        context = scores.softmax(dim=-1) @ v
        context = self.dropout(context)
        return self.out_proj(context.transpose(1, 2).reshape(b, n, -1))
