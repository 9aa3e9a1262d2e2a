import torch
from torch import nn


class MultiHeadAttentionWrapper(nn.Module):
    """num_heads independent CausalAttention heads, outputs concatenated."""

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        make_head = lambda _: CausalAttention(d_in, d_out, context_length, dropout, qkv_bias)
        self.heads = nn.ModuleList(map(make_head, range(num_heads)))  # built one after the other

    def forward(self, x):
        # (b, T, num_heads, d_out) -> (b, T, num_heads * d_out): head 0's features come first
        return torch.stack([head(x) for head in self.heads], dim=-2).flatten(start_dim=-2)
