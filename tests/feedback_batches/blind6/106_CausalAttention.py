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
        idx = torch.arange(context_length)
        self.register_buffer("future", idx[None, :] > idx[:, None], persistent=True)

    def forward(self, x):
        batch, num_tokens, _ = x.size()
        queries = self.W_query(x)
        keys = self.W_key(x)
        values = self.W_value(x)
        scores = torch.bmm(queries, keys.transpose(1, 2))
        scores = torch.where(self.future[:num_tokens, :num_tokens], -torch.inf, scores)
        weights = torch.softmax(scores / keys.size(-1) ** 0.5, dim=-1)
        return torch.bmm(self.dropout(weights), values)
