import math

import torch
import torch.nn.functional as F
from torch import nn


class SelfAttention_v2(nn.Module):
    """Self-attention with nn.Linear projections W_query, W_key, W_value."""

    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)

    def forward(self, x):
        # the layers' own tensors through the functional form: y = x A^T + b
        q = F.linear(x, self.W_query.weight, self.W_query.bias)
        k = F.linear(x, self.W_key.weight, self.W_key.bias)
        v = F.linear(x, self.W_value.weight, self.W_value.bias)
        scores = torch.matmul(q, k.transpose(-2, -1)).div(math.sqrt(k.size(-1)))
        return scores.softmax(dim=-1) @ v
