import math

import torch
import torch.nn.functional as F
from torch import nn


class SelfAttention_v2(nn.Module):
    """Self-attention with nn.Linear projections."""

    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)

    def forward(self, x):
        layers = (self.W_query, self.W_key, self.W_value)
        # one projection with the three weight matrices stacked (GPT-2's c_attn, computed on the fly)
        weight = torch.cat([layer.weight for layer in layers])
        bias = None if layers[0].bias is None else torch.cat([layer.bias for layer in layers])
        q, k, v = F.linear(x, weight, bias).chunk(3, dim=-1)
        num_tokens, d_k = k.shape
        # BLAS-style: scale * (q @ kᵀ) in one call; beta=0 ignores the empty input
        scores = torch.addmm(q.new_empty(num_tokens, num_tokens), q, k.T, beta=0, alpha=1 / math.sqrt(d_k))
        return scores.softmax(dim=-1) @ v
