import torch
from torch import nn


class SelfAttention_v1(nn.Module):
    """Self-attention with raw weight matrices."""

    def __init__(self, d_in, d_out):
        super().__init__()
        self.W_query = nn.Parameter(torch.rand(d_in, d_out))
        self.W_key = nn.Parameter(torch.rand(d_in, d_out))
        self.W_value = nn.Parameter(torch.rand(d_in, d_out))

    def forward(self, x):
        q = torch.matmul(x, self.W_query)
        k = torch.matmul(x, self.W_key)
        scores = torch.matmul(q, k.transpose(0, 1)) / k.size(1) ** 0.5
        weights = torch.softmax(scores, dim=0)
        return torch.matmul(weights, x)  # mix the tokens with the weights
