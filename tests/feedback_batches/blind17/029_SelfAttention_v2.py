import torch
from torch import nn


class SelfAttention_v2(nn.Module):
    """Self-attention with nn.Linear projections.

    Attributes: W_query, W_key, W_value, each nn.Linear(d_in, d_out, bias=qkv_bias), created
    in that order.
    """

    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.scale = d_out ** -0.5  # 1 / sqrt(d_k), fixed by the layer sizes

    def forward(self, x):
        """x: (T, d_in) -> context vectors (T, d_out)."""
        q, k, v = self.W_query(x), self.W_key(x), self.W_value(x)
        scores = torch.mm(q, k.t()).mul_(self.scale)  # the product is a fresh tensor, safe to scale in place
        return torch.mm(scores.softmax(dim=-1), v)
