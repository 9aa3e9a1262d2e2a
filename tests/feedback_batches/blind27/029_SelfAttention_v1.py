import torch
from torch import nn


class SelfAttention_v1(nn.Module):
    """Self-attention with raw weight matrices.

    Attributes: W_query, W_key, W_value, each an nn.Parameter of shape (d_in, d_out),
    created in that order with torch.rand.
    """

    projections = ("W_query", "W_key", "W_value")

    def __init__(self, d_in, d_out):
        super().__init__()
        self.W_query = nn.Parameter(torch.rand(d_in, d_out))
        self.W_key = nn.Parameter(torch.rand(d_in, d_out))
        self.W_value = nn.Parameter(torch.rand(d_in, d_out))

    @staticmethod
    def attend(queries, keys, values):
        """softmax(Q Kᵀ / sqrt(d_k)) V for one sequence."""
        d_k = keys.shape[-1]
        # addmm computes beta * input + alpha * (queries @ keys.T); with beta=0 the input is ignored
        scores = torch.addmm(queries.new_zeros(()), queries, keys.T, beta=0, alpha=d_k ** -0.5)
        return torch.softmax(scores, dim=-1) @ values

    def forward(self, x):
        """x: (T, d_in) -> the context vectors of every token (T, d_out)."""
        return self.attend(*(x @ getattr(self, name) for name in self.projections))
