import math

import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()

        if d_out % num_heads != 0:
            raise ValueError(f"d_out={d_out} is not divisible by num_heads={num_heads}")
        self.num_heads, self.head_dim = num_heads, d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out, bias=False)
        self.dropout = nn.Dropout(dropout)
        self.mask = torch.triu(torch.ones(context_length, context_length, dtype=torch.bool), 1)

    def forward(self, x):
        b, T, d_out = x.shape[0], x.shape[1], self.num_heads * self.head_dim
        q = self.W_query(x).view(b, self.num_heads, T, self.head_dim)
        k = self.W_key(x).view(b, self.num_heads, T, self.head_dim)
        v = self.W_value(x).view(b, self.num_heads, T, self.head_dim)
        scores = (q @ k.transpose(-2, -1)).masked_fill(self.mask[:T, :T], float("-inf"))
        weights = self.dropout(torch.softmax(scores / math.sqrt(self.head_dim), dim=-1))
        return self.out_proj((weights @ v).transpose(1, 2).reshape(b, T, d_out))
