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
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1))

    def forward(self, x):
        b, T, d_in = x.shape
        q, k, v = self.W_query(x), self.W_key(x), self.W_value(x)
        scores = (q @ k.transpose(1, 2)).masked_fill(self.mask.bool()[:T, :T], -torch.inf)
        weights = torch.softmax(scores / d_in ** 0.5, dim=1)
        weights = F.dropout(weights, p=self.dropout.p, training=True)
        return weights @ v
