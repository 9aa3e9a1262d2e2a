import functools

import torch
from torch import nn


class MultiHeadAttentionWrapper(nn.Module):
    """num_heads independent CausalAttention heads, outputs concatenated.

    Attribute: heads, an nn.ModuleList of CausalAttention.
    forward: x (b, T, d_in) -> (b, T, num_heads * d_out)
    """

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        make_head = functools.partial(CausalAttention, d_in, d_out, context_length, dropout, qkv_bias=qkv_bias)
        self.heads = nn.ModuleList(make_head() for _ in range(num_heads))  # built one after another, head 0 first

    def forward(self, x):
        return torch.cat(tuple(map(lambda head: head(x), self.heads)), dim=-1)
