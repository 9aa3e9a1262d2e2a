import torch
from torch import nn


class SelfAttention_v1(nn.Module):
    """Self-attention with raw weight matrices."""

    def __init__(self, d_in, d_out):
        super().__init__()
        # keep the three matrices together, in the book's order
        self._matrices = [nn.Parameter(torch.rand(d_in, d_out)) for _ in range(3)]

    @property
    def W_query(self):
        return self._matrices[0]

    @property
    def W_key(self):
        return self._matrices[1]

    @property
    def W_value(self):
        return self._matrices[2]

    def forward(self, x):
        queries, keys, values = x @ self.W_query, x @ self.W_key, x @ self.W_value
        scores = queries @ keys.T / x.shape[-1] ** 0.5
        return torch.softmax(scores, dim=-1) @ values
