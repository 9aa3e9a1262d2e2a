import math
import torch
import torch.nn.functional as F
from torch import nn


class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), 1).bool())

    def forward(self, x):
        b, T, d_in = x.shape
        flat = x.reshape(b * T, d_in)
        q, k, v = self.W_query(flat), self.W_key(flat), self.W_value(flat)
        scores = q @ k.T / k.shape[-1] ** 0.5                      # (b*T, b*T)
        mask = torch.triu(torch.ones(b * T, b * T, device=x.device), 1).bool()
        weights = self.dropout(torch.softmax(scores.masked_fill(mask, float("-inf")), dim=-1))
        return (weights @ v).reshape(b, T, -1)
