import torch
from torch import nn


class CausalAttention(nn.Module):
    """Single-head causal self-attention over a batch."""

    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1).bool())

    def forward(self, x):
        b, T, _ = x.shape
        flat = x.reshape(b * T, -1)  # every token of the batch, one after the other
        q, k, v = self.W_query(flat), self.W_key(flat), self.W_value(flat)
        n = b * T
        scores = (q @ k.T).masked_fill(self.mask[:n, :n], -torch.inf) / k.shape[-1] ** 0.5
        weights = self.dropout(torch.softmax(scores, dim=-1))
        return (weights @ v).view(b, T, -1)
