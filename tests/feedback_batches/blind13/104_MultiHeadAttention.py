import torch
from torch import nn


def _future_positions(n):
    """(n, n) bool: True where the key comes after the query."""
    return torch.ones(n, n, dtype=torch.bool).triu(diagonal=1)


class MultiHeadAttention(nn.Module):
    """Causal multi-head attention with one projection split across the heads."""

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads:
            raise ValueError(f"d_out={d_out} must be a multiple of num_heads={num_heads}")
        self.num_heads = num_heads
        self.head_dim = d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", _future_positions(context_length))

    def _cols(self, h):
        return slice(h * self.head_dim, (h + 1) * self.head_dim)

    def forward(self, x):
        T = x.shape[1]
        q, k, v = self.W_query(x), self.W_key(x), self.W_value(x)  # (b, T, d_out)
        hidden = self.mask[:T, :T]
        per_head = []
        for h in range(self.num_heads):  # head h owns one consecutive block of features
            s = q[..., self._cols(h)] @ k[..., self._cols(h)].transpose(1, 2)  # (b, T, T)
            per_head.append(s.masked_fill(hidden, -torch.inf))
        scores = torch.stack(per_head, dim=1) / self.head_dim ** 0.5  # (b, h, T, T)
        weights = self.dropout(torch.softmax(scores, dim=-1))  # one dropout call for all the heads
        context = [weights[:, h] @ v[..., self._cols(h)] for h in range(self.num_heads)]
        return self.out_proj(torch.cat(context, dim=-1))  # heads side by side, then mixed
