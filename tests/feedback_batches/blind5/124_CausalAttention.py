import torch
from torch import nn


class CausalAttention(nn.Module):
    """Defensive version: normalise the input, never let the scores blow up the graph."""

    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        if context_length <= 0:
            raise ValueError("context_length must be positive")
        self.context_length = context_length
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length, dtype=torch.bool), 1))

    def forward(self, x):
        if x.dim() != 3:
            raise ValueError(f"expected (b, T, d_in), got {tuple(x.shape)}")
        if x.shape[1] > self.context_length:
            raise ValueError("sequence longer than context_length")
        x = x.float()                                   # make sure we work in float32
        T = x.shape[1]
        q, k, v = self.W_query(x), self.W_key(x), self.W_value(x)
        scores = (q @ k.transpose(-2, -1)).detach()     # scores are just numbers, no graph needed
        scores = scores.masked_fill(self.mask[:T, :T], float("-inf")) / k.shape[-1] ** 0.5
        weights = self.dropout(torch.softmax(scores, dim=-1))
        return weights @ v
