import torch
from torch import nn


class MultiHeadAttentionWrapper(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        self.heads = nn.ModuleList(
            [CausalAttention(d_in, d_out, context_length, dropout, qkv_bias) for _ in range(num_heads)]
        )
        self.proj = nn.Linear(num_heads * d_out, num_heads * d_out)  # mix the heads

    def forward(self, x):
        joined = torch.cat([head(x) for head in reversed(self.heads)], dim=-1)
        return self.proj(joined)
