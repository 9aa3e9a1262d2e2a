import torch
from torch import nn


class SelfAttention_v1(nn.Module):
    """Self-attention with raw weight matrices.

    Attributes: W_query, W_key, W_value, each an nn.Parameter of shape (d_in, d_out),
    created in that order with torch.rand.
    """

    def __init__(self, d_in, d_out):
        super().__init__()
        self.W_query = nn.Parameter(torch.rand(d_in, d_out))
        self.W_key = nn.Parameter(torch.rand(d_in, d_out))
        self.W_value = nn.Parameter(torch.rand(d_in, d_out))

    def forward(self, x):
        """x: (T, d_in) -> the context vectors of every token (T, d_out)."""
        d_k = self.W_key.shape[-1]
        # (x Wq)(x Wk)^T = x Wq Wk^T x^T; multi_dot picks the cheapest order for the chain
        scores = torch.linalg.multi_dot([x, self.W_query, self.W_key.T, x.T])
        weights = torch.softmax(scores / d_k ** 0.5, dim=-1)
        return weights @ (x @ self.W_value)
