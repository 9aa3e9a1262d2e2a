import torch
from torch import nn


class MultiHeadAttentionWrapper(nn.Module):
    """num_heads independent CausalAttention heads, outputs concatenated.

    Graded attribute: heads, an nn.ModuleList of CausalAttention.
    forward: x (b, T, d_in) -> (b, T, num_heads * d_out)
    """

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        # named heads are easier to inspect
        self.heads = nn.ModuleDict({
            f"head_{i}": CausalAttention(d_in, d_out, context_length, dropout, qkv_bias)
            for i in range(num_heads)
        })

    def forward(self, x):
        return torch.cat([head(x) for head in self.heads.values()], dim=-1)
