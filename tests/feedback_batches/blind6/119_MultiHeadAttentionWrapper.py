import math
import torch
import torch.nn.functional as F
from torch import nn


class MultiHeadAttentionWrapper(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        self.heads = nn.ModuleList()
        for _ in range(num_heads):
            self.heads.append(CausalAttention(d_in, d_out, context_length, dropout, qkv_bias))

    def forward(self, x):
        outs = torch.stack([head(x) for head in self.heads], dim=-2)   # (b, T, h, d_out)
        return outs.flatten(start_dim=-2)                             # head 0's features first
