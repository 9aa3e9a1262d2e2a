import torch
import torch.nn.functional as F
from torch import nn


class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.d_out = d_out
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        # as in the book: a float buffer of 0s and 1s, turned into bool where it is used
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1))

    def forward(self, x):
        b, num_tokens, d_in = x.shape
        queries, keys, values = self.W_query(x), self.W_key(x), self.W_value(x)
        attn_scores = queries @ keys.mT
        attn_scores = attn_scores.masked_fill(self.mask.bool()[:num_tokens, :num_tokens], float("-inf"))
        attn_weights = F.softmax(attn_scores / keys.shape[-1] ** 0.5, dim=2)
        attn_weights = self.dropout(attn_weights)
        return attn_weights @ values
