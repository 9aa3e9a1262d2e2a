import torch
import torch.nn as nn


class SelfAttention_v1(nn.Module):
    """Self-attention with raw weight matrices."""

    def __init__(self, d_in, d_out):
        super().__init__()
        self.W_query = nn.Parameter(torch.rand(d_in, d_out))
        self.W_key = nn.Parameter(torch.rand(d_in, d_out))
        self.W_value = nn.Parameter(torch.rand(d_in, d_out))

    def forward(self, x):
        queries = torch.einsum("ti,io->to", x, self.W_query)
        keys = torch.einsum("ti,io->to", x, self.W_key)
        values = torch.einsum("ti,io->to", x, self.W_value)
        scores = torch.einsum("qo,ko->qk", queries, keys) / keys.shape[-1] ** 0.5
        weights = torch.softmax(scores, dim=0)  # normalise the scores
        return torch.einsum("qk,ko->qo", weights, values)
