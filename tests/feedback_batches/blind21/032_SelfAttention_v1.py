import torch
from torch import nn


class SelfAttention_v1(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.W_query = nn.Parameter(torch.rand(d_in, d_out))
        self.W_key = nn.Parameter(torch.rand(d_in, d_out))
        self.W_value = nn.Parameter(torch.rand(d_in, d_out))

    def forward(self, x):
        W_q, W_k, W_v = (w.detach() for w in (self.W_query, self.W_key, self.W_value))
        scores = (x @ W_q) @ (x @ W_k).T
        return torch.softmax(scores, dim=-1) @ (x @ W_v)
