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
        self.W_query, self.W_key, self.W_value = (
            nn.Linear(d_in, d_out, bias=qkv_bias) for _ in range(3)
        )

    def forward(self, x):
        """x: (T, d_in) -> context vectors (T, d_out)."""
        q, k, v = self.W_query(x), self.W_key(x), self.W_value(x)
        weights = F.softmax(q @ k.mT * k.shape[-1] ** -0.5, dim=-1)
        return weights @ v
