import torch
from torch import nn


class SelfAttention_v1(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.d_out = d_out
        params = [nn.Parameter(torch.rand(d_in, d_out)) for _ in range(3)]
        for p in params:
            p.requires_grad_(False)  # fixed projections for the demo
        self.W_query, self.W_key, self.W_value = params

    def forward(self, x):
        q, k, v = x @ self.W_query, x @ self.W_key, x @ self.W_value
        scores = q @ k.T / self.d_out**0.5
        return torch.softmax(scores, dim=0) @ v
