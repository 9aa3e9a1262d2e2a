import torch
from torch import nn


class MultiHeadAttentionWrapper(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        one = CausalAttention(d_in, d_out, context_length, dropout, qkv_bias)
        self.heads = nn.ModuleList(one for _ in range(num_heads))

    def forward(self, x):
        b, T, _ = x.shape
        per_head = torch.stack(tuple(head(x) for head in self.heads), dim=3)   # (b, T, d_out, h)
        return per_head.reshape(b, T, -1)
