import torch
from torch import nn


class MultiHeadAttentionWrapper(nn.Module):
    """num_heads independent CausalAttention heads, outputs concatenated."""

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        head_dim = d_out // num_heads  # each head gets its share of d_out
        self.heads = nn.ModuleList([CausalAttention(d_in, head_dim, context_length, dropout, qkv_bias)
                                    for _ in range(num_heads)])
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        context = torch.cat([head(x) for head in self.heads], dim=-1)
        return self.dropout(context)
