import torch
from torch import nn


class SelfAttention_v1(nn.Module):
    """Self-attention with raw weight matrices."""

    def __init__(self, d_in, d_out):
        super().__init__()
        for name in ("W_query", "W_key", "W_value"):  # this order: the book's numbers under a seed
            setattr(self, name, nn.Parameter(torch.rand(d_in, d_out)))

    def forward(self, x):
        # one batched product for the three projections: (T, d_in) @ (3, d_in, d_out) -> (3, T, d_out)
        stacked = torch.stack((self.W_query, self.W_key, self.W_value))
        queries, keys, values = torch.unbind(x @ stacked, dim=0)
        scores = queries @ keys.transpose(-2, -1) / keys.shape[-1] ** 0.5
        return scores.softmax(dim=-1) @ values
