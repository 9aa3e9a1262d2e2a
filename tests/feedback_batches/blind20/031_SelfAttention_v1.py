import torch
from torch import nn


class SelfAttention_v1(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.W_query = nn.Parameter(torch.empty(d_in, d_out).uniform_())
        self.W_key = nn.Parameter(torch.empty(d_in, d_out).uniform_())
        self.W_value = nn.Parameter(torch.empty(d_in, d_out).uniform_())
        self.d_out = d_out

    def forward(self, x):
        queries = torch.matmul(x, self.W_query) / self.d_out ** 0.5  # scale the queries first
        keys = torch.matmul(x, self.W_key)
        values = torch.matmul(x, self.W_value)
        scores = queries @ keys.transpose(0, 1)
        weights = torch.exp(scores - scores.amax(dim=1, keepdim=True))
        weights = weights / weights.sum(dim=1, keepdim=True)
        return weights @ values
