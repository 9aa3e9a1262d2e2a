import torch
from torch import nn


class SelfAttention_v1(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.weights = nn.ParameterDict({
            "W_query": nn.Parameter(torch.rand(d_in, d_out)),
            "W_key": nn.Parameter(torch.rand(d_in, d_out)),
            "W_value": nn.Parameter(torch.rand(d_in, d_out)),
        })

    def forward(self, x):
        w = self.weights
        q, k, v = x @ w["W_query"], x @ w["W_key"], x @ w["W_value"]
        return torch.softmax(q @ k.T / k.shape[-1] ** 0.5, dim=-1) @ v
