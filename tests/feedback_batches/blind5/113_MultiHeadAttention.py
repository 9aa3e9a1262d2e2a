import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads:
            raise ValueError(f"d_out={d_out} is not divisible by num_heads={num_heads}")
        self.heads, self.dim_head = num_heads, d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=True)
        self.W_key = nn.Linear(d_in, d_out, bias=True)
        self.W_value = nn.Linear(d_in, d_out, bias=True)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.ones(context_length, context_length).triu(1).bool())

    def forward(self, x):
        b, n, _ = x.shape
        h, dh = self.heads, self.dim_head
        q, k, v = (t.reshape(b, n, h, dh).transpose(1, 2) for t in (self.W_query(x), self.W_key(x), self.W_value(x)))
        dots = torch.einsum("bhid,bhjd->bhij", q, k) * dh ** -0.5
        dots = dots.masked_fill(self.mask[:n, :n], float("-inf"))
        attn = F.dropout(dots.softmax(dim=-1), p=self.dropout.p, training=True)
        out = torch.einsum("bhij,bhjd->bhid", attn, v).transpose(1, 2).reshape(b, n, h * dh)
        return self.out_proj(out)
