import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError(f"d_out={d_out} must be divisible by num_heads={num_heads}")
        self.d_out = d_out
        self.num_heads = num_heads
        self.head_dim = d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("future", torch.triu(torch.ones(context_length, context_length, dtype=torch.bool), 1))

    def forward(self, x):
        b, T, _ = x.shape
        # keep the projections as (b, T, h, hd) and let einsum's subscripts move the heads
        q = self.W_query(x).unflatten(-1, (self.num_heads, self.head_dim))
        k = self.W_key(x).unflatten(-1, (self.num_heads, self.head_dim))
        v = self.W_value(x).unflatten(-1, (self.num_heads, self.head_dim))
        scores = torch.einsum("bqhd,bkhd->bhqk", q, k) / self.head_dim ** 0.5
        scores = scores.masked_fill(self.future[:T, :T], float("-inf"))
        weights = self.dropout(scores.softmax(dim=-1))  # (b, h, T, T)
        context = torch.einsum("bhqk,bkhd->bqhd", weights, v)  # (b, T, h, hd): heads already beside their features
        return self.out_proj(context.reshape(b, T, self.d_out))
