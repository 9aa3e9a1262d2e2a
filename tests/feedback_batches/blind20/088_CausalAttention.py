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
        self.register_buffer("future_mask", torch.ones(context_length, context_length).triu(1).bool())

    def forward(self, x):
        T = x.size(1)
        q, k, v = self.W_query(x), self.W_key(x), self.W_value(x)
        scores = torch.bmm(q, k.transpose(1, 2)) / math.sqrt(self.W_key.out_features)
        scores = torch.where(self.future_mask[:T, :T], float("-inf"), scores)
        weights = self.dropout(F.softmax(scores, dim=-1))
        return torch.bmm(weights, v)
