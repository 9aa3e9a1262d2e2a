import torch
from torch import nn


class MultiHeadAttentionWrapper(nn.Module):
    """num_heads independent CausalAttention heads, outputs concatenated."""

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        self.heads = nn.ModuleList(
            [CausalAttention(d_in, d_out, context_length, 0.0, qkv_bias) for _ in range(num_heads)]
        )

    def forward(self, x):
        outputs = torch.stack([head(x) for head in self.heads], dim=-1)  # (b, T, d_out, h)
        return outputs.flatten(start_dim=-2)  # (b, T, d_out * h)
