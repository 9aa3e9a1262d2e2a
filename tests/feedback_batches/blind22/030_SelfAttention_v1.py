import math

import torch
from torch import nn


class SelfAttention_v1(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.W_query = nn.Parameter(torch.rand(d_in, d_out))
        self.W_key = nn.Parameter(torch.rand(d_in, d_out))
        self.W_value = nn.Parameter(torch.rand(d_in, d_out))

    def forward(self, x):
        d_out = self.W_query.shape[1]
        # one product with the three matrices side by side, then cut the result in three
        stacked = torch.cat((self.W_query, self.W_key, self.W_value), dim=1)  # (d_in, 3 d_out)
        queries, keys, values = (x @ stacked).split(d_out, dim=-1)
        weights = torch.softmax(queries @ keys.T / math.sqrt(d_out), dim=-1)
        return weights @ values
