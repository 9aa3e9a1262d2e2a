import math
import torch
import torch.nn.functional as F
from torch import nn


class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        # additive mask: 0 on and below the diagonal, -inf above it
        self.register_buffer(
            "attn_bias", torch.full((context_length, context_length), float("-inf")).triu(1)
        )

    def forward(self, x):
        T = x.shape[-2]
        q, k, v = self.W_query(x), self.W_key(x), self.W_value(x)
        scores = torch.einsum("bqd,bkd->bqk", q, k) / math.sqrt(k.shape[-1])
        weights = F.softmax(scores + self.attn_bias[:T, :T], dim=-1)
        weights = self.dropout(weights)
        return torch.einsum("bqk,bkd->bqd", weights, v)
