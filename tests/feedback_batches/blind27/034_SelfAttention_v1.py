import torch
from torch import nn


class SelfAttention_v1(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.W_query = torch.rand(d_in, d_out, requires_grad=True)
        self.W_key = torch.rand(d_in, d_out, requires_grad=True)
        self.W_value = torch.rand(d_in, d_out, requires_grad=True)
        self.d_out = d_out

    def forward(self, x):
        queries = x @ self.W_query
        keys = x @ self.W_key
        values = x @ self.W_value
        weights = torch.softmax(queries @ keys.T / self.d_out, dim=0)
        return weights @ values
