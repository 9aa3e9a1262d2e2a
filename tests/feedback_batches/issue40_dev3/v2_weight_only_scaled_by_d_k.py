import torch
import torch.nn.functional as F
from torch import nn


class SelfAttention_v2(nn.Module):
    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)

    def forward(self, x):
        q = F.linear(x, self.W_query.weight)
        k = F.linear(x, self.W_key.weight)
        v = F.linear(x, self.W_value.weight)
        d_k = k.shape[-1]
        return F.softmax(q @ k.transpose(-2, -1) / d_k, dim=-1) @ v
