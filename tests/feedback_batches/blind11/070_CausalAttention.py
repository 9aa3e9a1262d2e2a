import torch
from torch import nn


class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("causal", torch.ones(context_length, context_length).triu(1).bool())

    def forward(self, x):
        T = x.shape[1]
        scores = self.W_query(x) @ self.W_key(x).transpose(-2, -1)
        scores = scores.masked_fill(self.causal[:T, :T], float("-inf"))
        weights = torch.softmax(scores / self.W_query.in_features ** 0.5, dim=-1)
        return self.dropout(weights) @ self.W_value(x)
