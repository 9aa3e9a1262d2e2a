import torch
from torch import nn


class MultiHeadAttentionWrapper(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        self.d_out = d_out
        self.heads = nn.ModuleList()
        for _ in range(num_heads):
            self.heads.append(CausalAttention(d_in, d_out, context_length, dropout, qkv_bias=qkv_bias))

    def forward(self, x):
        b, T, _ = x.shape
        out = x.new_empty(b, T, len(self.heads) * self.d_out)
        for i, head in enumerate(self.heads):
            out[:, :, i * self.d_out:(i + 1) * self.d_out] = head(x)
        return out
