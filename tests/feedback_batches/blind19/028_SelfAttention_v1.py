import torch
from torch import nn


class SelfAttention_v1(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        for name in ("W_query", "W_key", "W_value"):  # this order decides which random numbers each gets
            setattr(self, name, nn.Parameter(torch.rand(d_in, d_out)))

    def forward(self, x):
        q, k, v = (torch.einsum("ti,io->to", x, w) for w in (self.W_query, self.W_key, self.W_value))
        weights = torch.softmax(torch.einsum("qo,ko->qk", q, k) / k.shape[-1] ** 0.5, dim=-1)
        return torch.einsum("qk,ko->qo", weights, v)
