from functools import reduce

import torch
from torch import nn


class MultiHeadAttentionWrapper(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        self.heads = nn.ModuleList(map(
            lambda _: CausalAttention(d_in, d_out, context_length, dropout, qkv_bias),
            range(num_heads),
        ))

    def forward(self, x):
        outputs = (head(x) for head in self.heads)
        return reduce(lambda left, right: torch.cat((left, right), dim=-1), outputs)
