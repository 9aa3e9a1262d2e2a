import torch
from torch import nn


class SelfAttention_v2(nn.Module):
    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_out, d_in, bias=qkv_bias)
        self.W_key = nn.Linear(d_out, d_in, bias=qkv_bias)
        self.W_value = nn.Linear(d_out, d_in, bias=qkv_bias)

    def forward(self, x):
        q = x @ self.W_query.weight
        k = x @ self.W_key.weight
        v = x @ self.W_value.weight
        if self.W_query.bias is not None:
            q, k, v = q + self.W_query.bias, k + self.W_key.bias, v + self.W_value.bias
        return torch.softmax(q @ k.T / k.shape[-1] ** 0.5, dim=-1) @ v
