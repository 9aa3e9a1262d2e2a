import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError(f"d_out ({d_out}) must be divisible by num_heads ({num_heads})")
        self.d_out, self.num_heads, self.head_dim = d_out, num_heads, d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length, dtype=torch.bool)))

    def forward(self, x):
        b, T, _ = x.shape
        q = self.W_query(x).view(b, T, self.num_heads, self.head_dim).transpose(1, 2)
        k = self.W_key(x).view(b, T, self.num_heads, self.head_dim).transpose(1, 2)
        v = self.W_value(x).view(b, T, self.num_heads, self.head_dim).transpose(1, 2)
        s = torch.baddbmm(
            torch.zeros(b * self.num_heads, T, T, dtype=x.dtype, device=x.device),
            q.reshape(-1, T, self.head_dim), k.reshape(-1, T, self.head_dim).transpose(1, 2),
            beta=0.0, alpha=self.head_dim ** -0.5,
        ).view(b, self.num_heads, T, T)
        s = s.masked_fill(self.mask[:T, :T], float("-inf"))
        w = self.dropout(torch.softmax(s, dim=-1))
        return self.out_proj((w @ v).transpose(1, 2).reshape(b, T, self.d_out))
