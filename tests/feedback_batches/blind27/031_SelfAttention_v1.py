import torch
from torch import nn


class SelfAttention_v1(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        # stored the way nn.Linear stores its weight: (out_features, in_features)
        self.W_query = nn.Parameter(torch.rand(d_out, d_in))
        self.W_key = nn.Parameter(torch.rand(d_out, d_in))
        self.W_value = nn.Parameter(torch.rand(d_out, d_in))

    def forward(self, x):
        queries = x @ self.W_query.T
        keys = x @ self.W_key.T
        values = x @ self.W_value.T
        scores = queries @ keys.T / x.shape[-1] ** 0.5
        return torch.softmax(scores, dim=-1) @ values
