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
        # one batched product projects x three times: (T, d_in) @ (3, d_in, d_out) -> (3, T, d_out)
        projections = x @ torch.stack((self.W_query, self.W_key, self.W_value))
        queries, keys, values = projections
        scores = queries @ keys.transpose(-1, -2) / math.sqrt(keys.shape[-1])
        return torch.softmax(scores, dim=-1) @ values
