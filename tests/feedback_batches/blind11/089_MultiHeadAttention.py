import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError(f"d_out ({d_out}) must be divisible by num_heads ({num_heads})")
        self.num_heads, self.head_dim = num_heads, d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer(
            "causal_mask",
            torch.ones(context_length, context_length, dtype=torch.bool).triu(diagonal=1),
        )

    def forward(self, x):
        b, T, _ = x.shape
        qkv = torch.stack((self.W_query(x), self.W_key(x), self.W_value(x)))  # (3, b, T, d_out)
        qkv = qkv.unflatten(-1, (self.num_heads, self.head_dim)).transpose(2, 3)  # (3, b, h, T, hd)
        q, k, v = qkv.unbind(0)
        scores = q @ k.transpose(-2, -1) / self.head_dim ** 0.5
        scores = scores.masked_fill(self.causal_mask[:T, :T], float("-inf"))
        weights = self.dropout(scores.softmax(dim=-1))
        context = (weights @ v).transpose(1, 2).reshape(b, T, -1)
        return self.out_proj(context)
