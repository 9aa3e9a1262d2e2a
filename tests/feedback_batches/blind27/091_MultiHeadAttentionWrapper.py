import torch
from torch import nn


class MultiHeadAttentionWrapper(nn.Module):
    """num_heads independent CausalAttention heads, outputs concatenated."""

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        self.heads = nn.ModuleList(CausalAttention(d_in, d_out, context_length, dropout, qkv_bias=qkv_bias)
                                   for _ in range(num_heads))

    def forward(self, x):
        per_head = torch.stack([head(x) for head in self.heads])  # (h, b, T, d_out)
        return torch.movedim(per_head, 0, -2).flatten(start_dim=-2)  # (b, T, h, d_out) -> (b, T, h * d_out)
