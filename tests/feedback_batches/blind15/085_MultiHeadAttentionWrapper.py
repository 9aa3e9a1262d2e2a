import torch
from torch import nn


class MultiHeadAttentionWrapper(nn.Module):
    """num_heads independent CausalAttention heads, outputs concatenated."""

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        make_head = lambda _: CausalAttention(d_in, d_out, context_length, dropout, qkv_bias)
        self.heads = nn.ModuleList(map(make_head, range(num_heads)))

    def forward(self, x):
        # (b, T, h, d_out) with the heads in order, then the last two dims joined: head 0's features first
        return torch.stack([head(x) for head in self.heads], dim=-2).flatten(start_dim=-2)
