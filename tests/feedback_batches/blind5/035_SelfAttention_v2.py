import torch
from torch import nn


class SelfAttention_v2(nn.Module):
    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)

    def _attn(self, query, key, value):
        attn_weights = torch.matmul(query, key.transpose(-1, -2))
        attn_weights = attn_weights / torch.tensor(key.size(0), dtype=attn_weights.dtype) ** 0.5
        attn_weights = nn.functional.softmax(attn_weights, dim=0)
        return torch.matmul(attn_weights, value)

    def forward(self, x):
        return self._attn(self.W_query(x), self.W_key(x), self.W_value(x))
