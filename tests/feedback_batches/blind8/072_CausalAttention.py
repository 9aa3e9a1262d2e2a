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
        self.cache_k = None
        self.cache_v = None

    def forward(self, x):
        q, k, v = self.W_query(x), self.W_key(x), self.W_value(x)
        if self.cache_k is not None and self.cache_k.shape[0] == x.shape[0]:  # MLX-style KV cache
            k = torch.cat([self.cache_k, k], dim=1)
            v = torch.cat([self.cache_v, v], dim=1)
        self.cache_k, self.cache_v = k.detach(), v.detach()
        T_q, T_k = q.shape[1], k.shape[1]
        scores = q @ k.transpose(1, 2)
        scores = scores.masked_fill(self.mask.bool()[T_k - T_q:T_k, :T_k], -torch.inf)
        return self.dropout(torch.softmax(scores / k.shape[-1] ** 0.5, dim=-1)) @ v
