import torch
from torch import nn


class MultiHeadAttentionWrapper(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        self.heads = nn.ModuleList(
            [CausalAttention(d_in, d_out, context_length, dropout, qkv_bias) for _ in range(num_heads)]
        )
        self.out_proj = nn.Linear(num_heads * d_out, num_heads * d_out)

    def forward(self, x):
        with torch.no_grad():
            outputs = [head(x) for head in self.heads]
        return self.out_proj(torch.cat(outputs, dim=-1))
