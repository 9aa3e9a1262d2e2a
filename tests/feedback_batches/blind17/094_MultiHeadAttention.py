import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError(f"d_out={d_out} is not divisible by num_heads={num_heads}")
        self.d_out = d_out
        self.num_heads = num_heads
        self.head_dim = d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length, dtype=torch.bool), diagonal=1))

    def _heads(self, t):
        b, T, _ = t.shape
        return t.view(b, T, self.head_dim, self.num_heads).permute(0, 3, 1, 2)  # (b, h, T, hd)

    def forward(self, x):
        b, T, _ = x.shape
        q, k, v = self._heads(self.W_query(x)), self._heads(self.W_key(x)), self._heads(self.W_value(x))
        scores = (q @ k.transpose(-2, -1)).masked_fill(self.mask[:T, :T], float("-inf"))
        weights = self.dropout(torch.softmax(scores / self.head_dim ** 0.5, dim=-1))
        context = (weights @ v).permute(0, 2, 3, 1).reshape(b, T, self.d_out)  # back to (b, T, hd * h)
        return self.out_proj(context)
