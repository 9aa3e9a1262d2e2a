import torch
from torch import nn


class SelfAttention_v1(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        for name in ("W_query", "W_key", "W_value"):      # this order decides the random numbers
            setattr(self, name, nn.Parameter(torch.rand(d_in, d_out)))

    def forward(self, x):
        q = torch.einsum("ti,io->to", x, self.W_query)
        k = torch.einsum("ti,io->to", x, self.W_key)
        v = torch.einsum("ti,io->to", x, self.W_value)
        scores = torch.einsum("to,so->ts", q, k) / k.shape[-1] ** 0.5
        return torch.einsum("ts,so->to", scores.softmax(dim=-1), v)
