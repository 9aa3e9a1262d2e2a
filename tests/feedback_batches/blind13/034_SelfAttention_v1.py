import torch
from torch import nn


class SelfAttention_v1(nn.Module):
    """Self-attention with raw weight matrices."""

    def __init__(self, d_in, d_out):
        super().__init__()
        self.register_parameter("W_query", nn.Parameter(torch.rand(d_in, d_out)))
        self.register_parameter("W_key", nn.Parameter(torch.rand(d_in, d_out)))
        self.register_parameter("W_value", nn.Parameter(torch.rand(d_in, d_out)))

    def forward(self, x):
        q = torch.mm(x, self.W_query)
        k = torch.mm(x, self.W_key)
        v = torch.mm(x, self.W_value)
        return torch.mm(torch.softmax(torch.mm(q, k.t()), dim=1), v)
