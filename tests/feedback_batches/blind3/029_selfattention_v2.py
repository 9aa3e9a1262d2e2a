import torch
import torch.nn.functional as F
from torch import nn


class SelfAttention_v2(nn.Module):
    """Self-attention with nn.Linear projections.

    Graded attributes: W_query, W_key, W_value, each nn.Linear(d_in, d_out, bias=qkv_bias),
    created in that order.
    """

    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)

    def forward(self, x):
        """x: (T, d_in) -> context vectors (T, d_out)."""
        q = F.linear(x, self.W_query.weight)  # x @ W.T
        k = F.linear(x, self.W_key.weight)
        v = F.linear(x, self.W_value.weight)
        att = F.softmax(q @ k.T / k.size(-1) ** 0.5, dim=-1)
        return att @ v
