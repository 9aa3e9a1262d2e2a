import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    """Causal multi-head attention with one projection split across the heads.
    Attributes: W_query, W_key, W_value, out_proj (nn.Linear, created in that order), dropout
    (nn.Dropout, on the attention weights) and the causal mask, a buffer.
    Raises ValueError when d_out is not divisible by num_heads.
    forward: x (b, T, d_in) with T <= context_length -> (b, T, d_out)
    """
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads:
            raise ValueError(f"d_out {d_out} not divisible by num_heads {num_heads}")
        self.h = num_heads
        self.hd = d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length, dtype=torch.bool), 1))

    def forward(self, x):
        b, T, _ = x.shape
        q = self.W_query(x).view(b, T, self.h, self.hd).transpose(1, 2)
        k = self.W_key(x).view(b, T, self.h, self.hd).transpose(1, 2)
        v = self.W_value(x).view(b, T, self.h, self.hd).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) / self.hd**0.5
        att = att.masked_fill(self.mask[:T, :T], float("-inf"))
        att = F.softmax(att, dim=-1)
        att = F.dropout(att, p=self.dropout.p, training=True)
        y = (att @ v).transpose(1, 2).reshape(b, T, self.h * self.hd)
        return self.out_proj(y)
