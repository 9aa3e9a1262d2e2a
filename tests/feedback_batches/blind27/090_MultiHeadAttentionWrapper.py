import torch
from torch import nn


class MultiHeadAttentionWrapper(nn.Module):
    """num_heads independent CausalAttention heads, outputs concatenated.

    Attribute: heads, an nn.ModuleList of CausalAttention.
    forward: x (b, T, d_in) -> (b, T, num_heads * d_out)
    """

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        self.heads = nn.ModuleList()
        for _ in range(num_heads):
            self.heads.append(CausalAttention(d_in, d_out, context_length, dropout, qkv_bias))

    def forward(self, x):
        # dstack joins (b, T, d_out) tensors along their third axis: the features, head 0 first
        return torch.dstack([head(x) for head in self.heads])
