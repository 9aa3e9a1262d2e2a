import torch
from torch import nn


class SelfAttention_v2(nn.Module):
    """Self-attention with nn.Linear projections."""

    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        # the tuple is built left to right: W_query first, then W_key, then W_value
        self.W_query, self.W_key, self.W_value = (nn.Linear(d_in, d_out, qkv_bias),
                                                  nn.Linear(d_in, d_out, qkv_bias),
                                                  nn.Linear(d_in, d_out, qkv_bias))

    def forward(self, x):
        """x: (T, d_in) -> context vectors (T, d_out)."""
        queries, keys, values = self.W_query(x), self.W_key(x), self.W_value(x)
        scores = torch.tensordot(queries, keys, dims=([-1], [-1]))  # (T, T)
        weights = torch.softmax(scores / keys.shape[-1] ** 0.5, dim=-1)
        return torch.tensordot(weights, values, dims=1)  # sum over the keys: (T, d_out)
