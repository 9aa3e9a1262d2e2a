import torch
from torch import nn


class SelfAttention_v1(nn.Module):
    """Self-attention with raw weight matrices."""

    def __init__(self, d_in, d_out):
        super().__init__()
        for name in ("W_query", "W_key", "W_value"):  # this order: the book's numbers under a seed
            self.register_parameter(name, nn.Parameter(torch.rand(d_in, d_out)))

    def forward(self, x):
        q, k, v = (x @ w for w in (self.W_query, self.W_key, self.W_value))
        logits = torch.einsum("qd,kd->qk", q, k) * k.shape[-1] ** -0.5
        return torch.special.softmax(logits, dim=-1) @ v
