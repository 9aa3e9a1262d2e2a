import torch
from torch import nn


class SelfAttention_v1(nn.Module):
    """Self-attention with raw weight matrices."""

    def __init__(self, d_in, d_out):
        super().__init__()
        self.W_q = nn.Parameter(torch.rand(d_in, d_out))
        self.W_k = nn.Parameter(torch.rand(d_in, d_out))
        self.W_v = nn.Parameter(torch.rand(d_in, d_out))

    def forward(self, x):
        q, k, v = x @ self.W_q, x @ self.W_k, x @ self.W_v
        return torch.softmax(q @ k.T / k.shape[-1] ** 0.5, dim=-1) @ v
