import math

import torch
import torch.nn.functional as F
from torch import nn


class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError(f"num_heads={num_heads} does not divide d_out={d_out}")
        self.h = num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("visible", torch.tril(torch.ones(context_length, context_length)).bool())

    def heads(self, t):
        b, T, d = t.shape
        return t.view(b, T, self.h, d // self.h).transpose(1, 2)

    def forward(self, x):
        T = x.shape[1]
        hd = self.W_query.out_features // self.h
        scale = 1 / math.sqrt(hd)
        # fold the 1/sqrt(hd) into the query projection: (x W^T + b) * s = x (s W)^T + s b
        bias = None if self.W_query.bias is None else self.W_query.bias * scale
        q = self.heads(F.linear(x, self.W_query.weight * scale, bias))
        k, v = self.heads(self.W_key(x)), self.heads(self.W_value(x))
        scores = (q @ k.transpose(-1, -2)).masked_fill(~self.visible[:T, :T], -math.inf)
        weights = self.dropout(scores.softmax(dim=-1))
        out = (weights @ v).transpose(1, 2)
        return self.out_proj(out.reshape(*out.shape[:2], -1))
