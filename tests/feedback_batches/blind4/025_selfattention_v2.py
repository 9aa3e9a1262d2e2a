import torch
from torch import nn


class SelfAttention_v2(nn.Module):
    """Self-attention with nn.Linear projections.

    Graded attributes: W_query, W_key, W_value, each nn.Linear(d_in, d_out, bias=qkv_bias),
    created in that order.
    """

    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        # third positional argument of nn.Linear is `bias`
        self.W_query = nn.Linear(d_in, d_out, qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, qkv_bias)

    def forward(self, x):
        """x: (T, d_in) -> context vectors (T, d_out)."""
        q, k, v = (layer(x) for layer in (self.W_query, self.W_key, self.W_value))
        scale = k.size(-1) ** -0.5
        weights = torch.softmax(torch.einsum("qd,kd->qk", q, k) * scale, dim=-1)
        return torch.einsum("qk,kd->qd", weights, v)
