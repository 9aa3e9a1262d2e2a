import torch
from torch import nn


class MultiHeadAttentionWrapper(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        self.heads = nn.ModuleList()
        for _ in range(num_heads):
            self.heads += [CausalAttention(d_in=d_in, d_out=d_out, context_length=context_length,
                                           dropout=dropout, qkv_bias=qkv_bias)]

    def forward(self, x):
        stacked = torch.stack([head(x) for head in self.heads], dim=-2)  # (b, T, h, d_out)
        return stacked.flatten(start_dim=-2)  # head 0's features first
