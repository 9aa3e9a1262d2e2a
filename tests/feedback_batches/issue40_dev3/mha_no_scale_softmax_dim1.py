import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads:
            raise ValueError(f"d_out={d_out} does not split into num_heads={num_heads} heads")
        self.num_heads = num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.full((context_length, context_length), -torch.inf).triu(1))

    def forward(self, x):
        b, t, d = x.shape[0], x.shape[1], self.W_query.out_features
        split = lambda y: y.reshape(b, t, self.num_heads, -1).swapaxes(1, 2)
        q, k, v = split(self.W_query(x)), split(self.W_key(x)), split(self.W_value(x))
        weights = (q @ k.swapaxes(-1, -2) + self.mask[:t, :t]).softmax(dim=2)
        weights = self.dropout(weights)
        out = (weights @ v).swapaxes(1, 2).reshape(b, t, d)
        return self.out_proj(out)
