import torch
import torch.nn.functional as F
from torch import nn


class SelfAttention_v1(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.W_query = nn.Parameter(torch.rand(d_in, d_out))
        self.W_key = nn.Parameter(torch.rand(d_in, d_out))
        self.W_value = nn.Parameter(torch.rand(d_in, d_out))

    def forward(self, x):
        queries, keys, values = (x @ W for W in (self.W_query, self.W_key, self.W_value))
        weights = F.softmax(scaled_dot_product_scores(queries, keys), dim=-1)
        return weights @ values
