import math

import torch
from torch import nn


class SelfAttention_v1(nn.Module):
    """Self-attention with raw weight matrices W_query, W_key, W_value of shape (d_in, d_out)."""

    def __init__(self, d_in, d_out):
        super().__init__()
        self.W_query = nn.Parameter(torch.rand(d_in, d_out))
        self.W_key = nn.Parameter(torch.rand(d_in, d_out))
        self.W_value = nn.Parameter(torch.rand(d_in, d_out))

    def forward(self, x):
        d_k = self.W_key.shape[1]
        # scores = (x Wq)(x Wk)^T = x Wq Wk^T x^T, one chained product
        scores = torch.linalg.multi_dot([x, self.W_query, self.W_key.T, x.T]) / math.sqrt(d_k)
        weights = torch.exp(scores - scores.max(dim=-1, keepdim=True).values)
        weights = weights / weights.sum(dim=-1, keepdim=True)
        return torch.linalg.multi_dot([weights, x, self.W_value])
