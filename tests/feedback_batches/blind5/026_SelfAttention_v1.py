import torch
from torch import nn


class SelfAttention_v1(nn.Module):
    """Self-attention with raw weight matrices (HF-style, with an _attn helper)."""

    def __init__(self, d_in, d_out):
        super().__init__()
        self.W_query = nn.Parameter(torch.rand(d_in, d_out))
        self.W_key = nn.Parameter(torch.rand(d_in, d_out))
        self.W_value = nn.Parameter(torch.rand(d_in, d_out))

    def _attn(self, query, key, value):
        attn_weights = torch.matmul(query, key.transpose(-1, -2))
        attn_weights = attn_weights / key.size(-1) ** 0.5
        attn_weights = nn.functional.softmax(attn_weights, dim=-1)
        return torch.matmul(attn_weights, value), attn_weights

    def forward(self, x):
        """x: (T, d_in) -> the context vectors of every token (T, d_out)."""
        query = x @ self.W_query
        key = x @ self.W_key
        value = x @ self.W_value
        attn_output, _ = self._attn(query, key, value)
        return attn_output
