import torch
from torch import nn


class SelfAttention_v1(nn.Module):
    """Self-attention with raw weight matrices.

    Graded attributes: W_query, W_key, W_value, each an nn.Parameter of shape
    (d_in, d_out), created in that order with torch.rand.
    """

    def __init__(self, d_in, d_out):
        super().__init__()
        # short names, as in the formulas: q = x Wq, k = x Wk, v = x Wv
        self.Wq = nn.Parameter(torch.rand(d_in, d_out))
        self.Wk = nn.Parameter(torch.rand(d_in, d_out))
        self.Wv = nn.Parameter(torch.rand(d_in, d_out))

    def forward(self, x):
        """x: (T, d_in) -> the context vectors of every token (T, d_out)."""
        q = x @ self.Wq
        k = x @ self.Wk
        v = x @ self.Wv
        scores = q @ k.transpose(-2, -1) / k.shape[-1] ** 0.5
        return torch.softmax(scores, dim=-1) @ v
