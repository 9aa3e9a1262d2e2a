import torch
from torch import nn


class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length, dtype=torch.bool), diagonal=1))

    def forward(self, x):
        b, T, d_in = x.shape
        flat = x.reshape(b * T, d_in)  # reuse the 2-D code of notebook 2
        queries, keys, values = self.W_query(flat), self.W_key(flat), self.W_value(flat)
        hidden = torch.triu(torch.ones(b * T, b * T, dtype=torch.bool, device=x.device), diagonal=1)
        attn_scores = (queries @ keys.T).masked_fill(hidden, float("-inf"))
        attn_weights = self.dropout(torch.softmax(attn_scores, dim=-1))
        return (attn_weights @ values).reshape(b, T, -1)
