import torch
from torch import nn


class _ScaledDotProduct:
    """Mixin: the attention arithmetic shared by my modules."""

    @staticmethod
    def attend(q, k, v):
        scores = q @ k.transpose(-2, -1) / k.shape[-1] ** 0.5
        return torch.softmax(scores, dim=-1) @ v


class SelfAttention_v1(_ScaledDotProduct, nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        for name in ("W_query", "W_key", "W_value"):  # the book's order
            setattr(self, name, nn.Parameter(torch.rand(d_in, d_out)))

    def forward(self, x):
        return self.attend(x @ self.W_query, x @ self.W_key, x @ self.W_value)
