import math

import torch
from torch import nn


class CausalAttention(nn.Module):
    """Ported from nanoGPT's CausalSelfAttention (one head)."""

    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.c_attn = nn.Linear(d_in, 3 * d_out, bias=qkv_bias)  # q, k, v in one matmul
        self.attn_dropout = nn.Dropout(dropout)
        self.d_out = d_out
        self.register_buffer("bias", torch.tril(torch.ones(context_length, context_length)))

    def forward(self, x):
        T = x.size(1)
        q, k, v = self.c_attn(x).split(self.d_out, dim=2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = att.masked_fill(self.bias[:T, :T] == 0, float("-inf"))
        att = self.attn_dropout(torch.softmax(att, dim=-1))
        return att @ v
