from functools import reduce

import torch
from torch import nn


class MultiHeadAttentionWrapper(nn.Module):
    """num_heads independent CausalAttention heads, outputs concatenated."""

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        make_head = lambda _: CausalAttention(d_in, d_out, context_length, dropout, qkv_bias)  # noqa: E731
        self.heads = nn.ModuleList(map(make_head, range(num_heads)))

    def forward(self, x):
        first, *rest = self.heads
        return reduce(lambda joined, head: torch.cat((joined, head(x)), dim=-1), rest, first(x))
