import torch
from torch import nn


class SelfAttention_v1(nn.Module):
    ROLES = ("query", "key", "value")

    def __init__(self, d_in, d_out):
        super().__init__()
        self.W = nn.ParameterDict({role: nn.Parameter(torch.rand(d_in, d_out)) for role in self.ROLES})

    def forward(self, x):
        q, k, v = (x @ self.W[role] for role in self.ROLES)
        weights = torch.softmax(q @ k.T / k.shape[-1] ** 0.5, dim=-1)
        return weights @ v
