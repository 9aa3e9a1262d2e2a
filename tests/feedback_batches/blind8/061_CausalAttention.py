import torch
from torch import nn


class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1))

    def forward(self, x):
        b, T, d_in = x.shape
        flat = x.reshape(b * T, d_in)  # treat the batch as one long sequence
        q, k, v = self.W_query(flat), self.W_key(flat), self.W_value(flat)
        hidden = torch.ones(b * T, b * T, dtype=torch.bool, device=x.device).triu(1)
        scores = (q @ k.T).masked_fill(hidden, -torch.inf)
        weights = self.dropout(torch.softmax(scores / k.shape[-1] ** 0.5, dim=-1))
        return (weights @ v).reshape(b, T, -1)
