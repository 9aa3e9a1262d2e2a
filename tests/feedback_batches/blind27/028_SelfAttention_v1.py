import torch
import torch.nn.functional as F
from torch import nn


class SelfAttention_v1(nn.Module):
    """Self-attention with raw weight matrices.

    Attributes: W_query, W_key, W_value, each an nn.Parameter of shape (d_in, d_out),
    created in that order with torch.rand.
    """

    def __init__(self, d_in, d_out):
        super().__init__()
        for name in ("W_query", "W_key", "W_value"):  # this order gives the book's numbers
            self.register_parameter(name, nn.Parameter(torch.rand(d_in, d_out)))

    def forward(self, x):
        """x: (T, d_in) -> the context vectors of every token (T, d_out)."""
        q, k, v = x @ self.W_query, x @ self.W_key, x @ self.W_value
        scores = torch.inner(q, k)  # (T, T): inner contracts the last axis of both
        weights = F.softmax(scores * k.shape[-1] ** -0.5, dim=1)
        return weights @ v
