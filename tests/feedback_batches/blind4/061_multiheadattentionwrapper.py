import torch
from torch import nn


class MultiHeadAttentionWrapper(nn.Module):
    """num_heads independent CausalAttention heads, outputs concatenated.

    Graded attribute: heads, an nn.ModuleList of CausalAttention.
    forward: x (b, T, d_in) -> (b, T, num_heads * d_out)
    """

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        self.heads = nn.ModuleList()
        for _ in range(num_heads):
            self.heads.append(
                CausalAttention(d_in=d_in, d_out=d_out, context_length=context_length,
                                dropout=dropout, qkv_bias=qkv_bias)
            )

    def forward(self, x):
        per_head = torch.stack([head(x) for head in self.heads], dim=-2)  # (b, T, num_heads, d_out)
        return per_head.flatten(start_dim=-2)  # head 0's d_out features, then head 1's, ...
