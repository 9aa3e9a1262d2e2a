import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    """Causal multi-head attention with one projection split across the heads."""

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError(f"num_heads={num_heads} does not divide d_out={d_out}")
        self.num_heads = num_heads
        self.head_dim = d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("tril", torch.tril(torch.ones(context_length, context_length)))

    def _heads(self, t):
        # h tensors (b, T, hd) stacked on a new dim 1: (b, h, T, hd)
        return torch.stack(t.split(self.head_dim, dim=-1), dim=1)

    def forward(self, x):
        T = x.shape[1]
        q, k, v = (self._heads(layer(x)) for layer in (self.W_query, self.W_key, self.W_value))
        scores = torch.matmul(q, k.transpose(-1, -2)) * self.head_dim ** -0.5
        scores = scores.masked_fill(self.tril[:T, :T] == 0, float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-1))
        context = torch.matmul(weights, v).transpose(1, 2).flatten(start_dim=2)  # (b, T, d_out)
        return self.out_proj(context)
