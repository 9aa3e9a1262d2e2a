import torch
from torch import nn


class SelfAttention_v1(nn.Module):
    """Self-attention with raw weight matrices.

    Graded attributes: W_query, W_key, W_value, each an nn.Parameter of shape
    (d_in, d_out), created in that order with torch.rand.
    """

    def __init__(self, d_in, d_out):
        super().__init__()
        # same as the walk-through above
        self.W_query = nn.Parameter(torch.rand(d_in, d_out), requires_grad=False)
        self.W_key = nn.Parameter(torch.rand(d_in, d_out), requires_grad=False)
        self.W_value = nn.Parameter(torch.rand(d_in, d_out), requires_grad=False)

    def forward(self, x):
        """x: (T, d_in) -> context vectors (T, d_out)."""
        queries = x @ self.W_query
        keys = x @ self.W_key
        values = x @ self.W_value
        attn_weights = torch.softmax(queries @ keys.T / keys.shape[-1] ** 0.5, dim=-1)
        return attn_weights @ values
