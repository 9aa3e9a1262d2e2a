import torch
from torch import nn


class MultiHeadAttentionWrapper(nn.Module):
    """num_heads independent CausalAttention heads, outputs concatenated."""

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        self.heads = nn.ModuleList()
        for _ in range(num_heads):
            self.heads.append(CausalAttention(d_in, d_out, context_length, dropout))

    def forward(self, x):
        outputs = [head(x) for head in self.heads]
        return torch.cat(outputs, dim=-1)
