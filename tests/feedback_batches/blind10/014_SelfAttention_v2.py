import math
import torch
from torch import nn


class SelfAttention_v2(nn.Module):
    """Self-attention with nn.Linear projections.
    Attributes: W_query, W_key, W_value, each nn.Linear(d_in, d_out, bias=qkv_bias), created
    in that order.
    """
    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.d_out = d_out
        # one loop, but the names come in the required order: query, key, value
        for name in ("W_query", "W_key", "W_value"):
            setattr(self, name, nn.Linear(d_in, d_out, bias=bool(qkv_bias)))

    def forward(self, x):
        """x: (T, d_in) -> context vectors (T, d_out)."""
        q = self.W_query(x)
        k = self.W_key(x)
        v = self.W_value(x)
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(k.size(-1))
        weights = scores.softmax(dim=-1)
        return torch.matmul(weights, v)
