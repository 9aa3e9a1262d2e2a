import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    """One loop iteration per head, each head a slice of the shared projections."""

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads:
            raise ValueError("d_out = %d cannot be divided into num_heads = %d heads" % (d_out, num_heads))
        self.num_heads = num_heads
        self.head_dim = d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer(
            "hide", torch.full((context_length, context_length), float("-inf")).triu(1))

    def forward(self, x):
        T = x.shape[1]
        q, k, v = self.W_query(x), self.W_key(x), self.W_value(x)
        heads = []
        for h in range(self.num_heads):
            cols = slice(h * self.head_dim, (h + 1) * self.head_dim)
            scores = q[..., cols] @ k[..., cols].transpose(1, 2) / self.head_dim ** 0.5 + self.hide[:T, :T]
            heads.append(self.dropout(torch.softmax(scores, dim=-1)) @ v[..., cols])
        return self.out_proj(torch.cat(heads, dim=-1))
