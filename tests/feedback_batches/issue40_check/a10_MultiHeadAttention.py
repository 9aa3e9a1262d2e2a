import torch
from torch import nn
from torch.nn import functional as F


class MultiHeadAttention(nn.Module):
    """nanoGPT's CausalSelfAttention, one fused projection for queries, keys and values."""

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads:
            raise ValueError(f"d_out ({d_out}) must be divisible by num_heads ({num_heads})")
        self.n_head, self.n_embd = num_heads, d_out
        self.c_attn = nn.Linear(d_in, 3 * d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1).bool())

    def forward(self, x):
        B, T, _ = x.size()
        q, k, v = self.c_attn(x).split(self.n_embd, dim=2)
        q = q.view(B, T, self.n_head, -1).transpose(1, 2)
        k = k.view(B, T, self.n_head, -1).transpose(1, 2)
        v = v.view(B, T, self.n_head, -1).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) / k.size(-1) ** 0.5
        att = att.masked_fill(self.mask[:T, :T], float("-inf"))
        att = self.dropout(F.softmax(att, dim=-1))
        y = (att @ v).transpose(1, 2).contiguous().view(B, T, self.n_embd)
        return self.out_proj(y)
