import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        head_dim, remainder = divmod(d_out, num_heads)
        if remainder:
            raise ValueError(f"d_out {d_out} % num_heads {num_heads} = {remainder}, must be 0")
        super().__init__()
        self.num_heads, self.head_dim = num_heads, head_dim
        for name in ("W_query", "W_key", "W_value"):
            self.add_module(name, nn.Linear(d_in, d_out, bias=qkv_bias))
        self.add_module("out_proj", nn.Linear(d_out, d_out))
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.ones(context_length, context_length, dtype=torch.bool).triu(1))

    def forward(self, x):
        b, T, _ = x.shape

        def heads(t):
            return t.view(b, T, self.num_heads, self.head_dim).transpose(1, 2)

        q, k, v = heads(self.W_query(x)), heads(self.W_key(x)), heads(self.W_value(x))
        scores = torch.where(self.mask[:T, :T], float("-inf"), q @ k.mT * self.head_dim ** -0.5)
        context = self.dropout(scores.softmax(-1)) @ v
        return self.out_proj(context.transpose(1, 2).contiguous().view(b, T, self.num_heads * self.head_dim))
