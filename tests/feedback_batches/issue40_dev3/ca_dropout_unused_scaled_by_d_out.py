import torch
from torch import nn


class CausalAttention(nn.Module):
    """Causal self-attention with one head."""

    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("future", torch.ones(context_length, context_length).triu(1).bool())

    def forward(self, x):
        n = x.size(1)
        q = self.W_query(x)
        k = self.W_key(x)
        v = self.W_value(x)
        scores = torch.matmul(q, k.transpose(-2, -1)) / k.size(-1)
        scores = scores.masked_fill(self.future[:n, :n], float("-inf"))
        weights = scores.softmax(dim=-1)
        return torch.matmul(weights, v)
