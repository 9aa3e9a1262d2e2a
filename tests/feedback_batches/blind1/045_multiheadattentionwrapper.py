import torch
import torch.nn as nn


class MultiHeadAttentionWrapper(nn.Module):
    """num_heads independent CausalAttention heads, outputs concatenated."""

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        self.heads = nn.ModuleList()
        for _ in range(num_heads):
            self.heads.append(CausalAttention(d_in, d_out, context_length, dropout, qkv_bias=qkv_bias))

    def forward(self, x):
        outputs = [head(x) for head in self.heads]  # each (b, T, d_out)
        return torch.cat(outputs, dim=2)  # (b, T, num_heads * d_out)
