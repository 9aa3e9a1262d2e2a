import torch
import torch.nn as nn
import torch.nn.functional as F


class SelfAttention_v1(nn.Module):
    """Self-attention with raw weight matrices."""

    def __init__(self, d_in, d_out):
        super().__init__()
        self.W_query = nn.Parameter(torch.rand(d_in, d_out))
        self.W_key = nn.Parameter(torch.rand(d_in, d_out))
        self.W_value = nn.Parameter(torch.rand(d_in, d_out))

    def forward(self, x):
        q, k, v = x @ self.W_query, x @ self.W_key, x @ self.W_value  # (T, d_out) each
        # the fused function scales by 1/sqrt(last dim of q), which is d_out here
        return F.scaled_dot_product_attention(q, k, v)
