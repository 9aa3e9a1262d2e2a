import math
import torch
import torch.nn.functional as F
from torch import nn


class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads:
            raise ValueError(f"d_out={d_out} is not a multiple of num_heads={num_heads}")
        self.num_heads = num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer(
            "neg_inf_above", torch.full((context_length, context_length), float("-inf")).triu(1)
        )

    def forward(self, x):
        T = x.shape[1]
        q = self.W_query(x).unflatten(-1, (self.num_heads, -1))   # (b, T, h, hd)
        k = self.W_key(x).unflatten(-1, (self.num_heads, -1))
        v = self.W_value(x).unflatten(-1, (self.num_heads, -1))
        scores = torch.einsum("bqhd,bkhd->bhqk", q, k) / math.sqrt(q.shape[-1])
        weights = self.dropout(torch.softmax(scores + self.neg_inf_above[:T, :T], dim=-1))
        context = torch.einsum("bhqk,bkhd->bqhd", weights, v)      # (b, T, h, hd)
        return self.out_proj(context.flatten(-2))
