import torch
from torch import nn


class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out)
        self.W_key = nn.Linear(d_in, d_out)
        self.W_value = nn.Linear(d_in, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length, dtype=torch.bool), 1))

    def forward(self, x):
        b, T, d_in = x.shape
        tokens = x.reshape(b * T, d_in)  # all tokens of the batch in one (N, d_in) matrix
        N = tokens.shape[0]
        q, k, v = self.W_query(tokens), self.W_key(tokens), self.W_value(tokens)
        scores = q @ k.T / k.shape[-1] ** 0.5
        scores = scores.masked_fill(self.mask[:N, :N], float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-1))
        return (weights @ v).reshape(b, T, -1)
