import math

import torch
from torch import nn


class SelfAttention_v2(nn.Module):
    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)

    def forward(self, x):
        scale = 1.0 / math.sqrt(self.W_key.in_features)
        scores = self.W_query(x) @ self.W_key(x).transpose(0, 1)
        return torch.softmax(scores * scale, dim=-1) @ self.W_value(x)
