import math
import torch
import torch.nn.functional as F
from torch import nn


class SelfAttention_v2(nn.Module):
    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, qkv_bias)

    def forward(self, x):
        q = F.linear(x, self.W_query.weight, self.W_query.bias)
        k = F.linear(x, self.W_key.weight, self.W_key.bias)
        v = F.linear(x, self.W_value.weight, self.W_value.bias)
        s = (q @ k.mT) * (1.0 / math.sqrt(k.shape[-1]))
        e = torch.exp(s - s.amax(dim=-1, keepdim=True))
        return (e / e.sum(dim=-1, keepdim=True)) @ v
