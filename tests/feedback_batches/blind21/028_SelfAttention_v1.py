import torch
import torch.nn.functional as F
from torch import nn


class SelfAttention_v1(nn.Module):
    """Self-attention with raw weight matrices W_query, W_key, W_value of shape (d_in, d_out)."""

    def __init__(self, d_in, d_out):
        super().__init__()
        new_matrix = lambda: nn.Parameter(torch.rand(d_in, d_out))  # noqa: E731
        self.W_query = new_matrix()
        self.W_key = new_matrix()
        self.W_value = new_matrix()

    def forward(self, x):
        stacked = torch.stack((self.W_query, self.W_key, self.W_value))  # (3, d_in, d_out)
        queries, keys, values = x @ stacked  # (T, d_in) @ (3, d_in, d_out) -> three (T, d_out)
        scores = queries @ keys.transpose(0, 1) * keys.size(-1) ** -0.5
        return F.softmax(scores, dim=1) @ values
