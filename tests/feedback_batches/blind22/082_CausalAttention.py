import torch
from torch import nn
import torch.nn.functional as F


class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        # a compact int8 buffer: 1 where the key comes after the query
        self.register_buffer("future", torch.ones(context_length, context_length, dtype=torch.int8).triu(1))

    def forward(self, x):
        T = x.size(1)
        q, k, v = self.W_query(x), self.W_key(x), self.W_value(x)
        scores = torch.matmul(q, k.transpose(-1, -2)) / k.size(-1) ** 0.5
        hidden = self.future[:T, :T].bool()
        weights = F.softmax(scores.masked_fill(hidden, float("-inf")), dim=-1)
        return self.dropout(weights) @ v
