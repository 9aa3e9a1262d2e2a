import torch
from torch import nn


class SelfAttention_v1(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        # Keras RandomUniform(-0.5, 0.5), centred so the scores start near 0
        self.W_query = nn.Parameter(torch.rand(d_in, d_out) - 0.5)
        self.W_key = nn.Parameter(torch.rand(d_in, d_out) - 0.5)
        self.W_value = nn.Parameter(torch.rand(d_in, d_out) - 0.5)

    def forward(self, x):
        q, k, v = x @ self.W_query, x @ self.W_key, x @ self.W_value
        weights = torch.softmax(q @ k.transpose(1, 2) / k.shape[-1] ** 0.5, dim=-1)
        return weights @ v
