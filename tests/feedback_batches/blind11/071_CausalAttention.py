import torch
from torch import nn


class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out)
        self.W_key = nn.Linear(d_in, d_out)
        self.W_value = nn.Linear(d_in, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1).bool())

    def forward(self, x):
        T = x.shape[1]
        keys = self.W_key(x)
        scores = self.dropout(self.W_query(x) @ keys.transpose(1, 2))
        scores = scores.masked_fill(self.mask[:T, :T], float("-inf"))
        return torch.softmax(scores / keys.shape[-1] ** 0.5, dim=-1) @ self.W_value(x)
