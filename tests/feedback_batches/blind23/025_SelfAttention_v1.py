import torch
from torch import nn


class SelfAttention_v1(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.W_query = nn.Parameter(torch.rand(d_in, d_out))
        self.W_key = nn.Parameter(torch.rand(d_in, d_out))
        self.W_value = nn.Parameter(torch.rand(d_in, d_out))

    def forward(self, x):
        q, k, v = x @ self.W_query, x @ self.W_key, x @ self.W_value
        d_k = k.shape[-1]
        # outer products by broadcasting: (T, 1, d) * (1, T, d) summed over d
        scores = (q.unsqueeze(1) * k.unsqueeze(0)).sum(-1) / d_k ** 0.5
        weights = torch.softmax(scores, dim=-1)
        # weighted sum of the values by broadcasting: (T, T, 1) * (1, T, d) summed over keys
        return (weights.unsqueeze(-1) * v.unsqueeze(0)).sum(1)
