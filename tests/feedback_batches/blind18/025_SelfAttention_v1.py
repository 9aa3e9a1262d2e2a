import torch
from torch import nn


class SelfAttention_v1(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.W_query = nn.Parameter(torch.rand(d_in, d_out))
        self.W_key = nn.Parameter(torch.rand(d_in, d_out))
        self.W_value = nn.Parameter(torch.rand(d_in, d_out))

    def forward(self, x):
        # the three projections in one batched product: (T, d_in) @ (3, d_in, d_out) -> (3, T, d_out)
        W = torch.stack((self.W_query, self.W_key, self.W_value))
        queries, keys, values = x @ W
        scores = queries @ keys.mT * keys.shape[-1] ** -0.5
        return scores.softmax(dim=-1) @ values
