import math

import torch
import torch.nn as nn


class SelfAttention_v1(nn.Module):
    """Self-attention with raw weight matrices, written with einsum."""

    def __init__(self, d_in, d_out):
        super().__init__()
        for name in ("W_query", "W_key", "W_value"):  # this order: the seed decides the numbers
            setattr(self, name, nn.Parameter(torch.rand(d_in, d_out)))

    def forward(self, x):
        q = torch.einsum("ti,io->to", x, self.W_query)
        k = torch.einsum("ti,io->to", x, self.W_key)
        v = torch.einsum("ti,io->to", x, self.W_value)
        w = torch.softmax(torch.einsum("qo,ko->qk", q, k) / math.sqrt(k.shape[-1]), dim=-1)
        return torch.einsum("qk,ko->qo", w, v)
