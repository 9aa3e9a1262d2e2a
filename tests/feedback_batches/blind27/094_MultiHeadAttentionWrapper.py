import torch
from torch import nn


class MultiHeadAttentionWrapper(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        head = CausalAttention(d_in, d_out, context_length, 0.0, qkv_bias)
        self.heads = nn.ModuleList([head] * num_heads)

    def forward(self, x):
        outputs = [head(x) for head in reversed(self.heads)]
        return torch.cat(outputs, dim=-1)
