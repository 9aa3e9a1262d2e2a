import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    """Causal multi-head attention with one projection split across the heads."""

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError(f"d_out={d_out} is not divisible by num_heads={num_heads}")
        self.d_out, self.num_heads, self.head_dim = d_out, num_heads, d_out // num_heads
        self.context_length = context_length
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        b, T, _ = x.shape
        q = split_heads(self.W_query(x), self.num_heads)
        k = split_heads(self.W_key(x), self.num_heads)
        v = split_heads(self.W_value(x), self.num_heads)
        future = torch.triu(torch.ones(T, T), diagonal=1).bool()  # just the size this batch needs
        scores = (q @ k.transpose(-2, -1)).masked_fill(future, -torch.inf) / self.head_dim ** 0.5
        weights = self.dropout(torch.softmax(scores, dim=-1))
        context = (weights @ v).reshape(b, T, self.d_out)
        return self.out_proj(context)
