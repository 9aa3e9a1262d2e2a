import torch
from torch import nn


class MultiHeadAttentionWrapper(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        self.heads = nn.ModuleList()
        for i in range(num_heads):
            print(f"building head {i}")
            self.heads.append(CausalAttention(d_in, d_out, context_length, dropout, qkv_bias))

    def forward(self, x):
        outs = []
        for head in reversed(self.heads):       # last head on top, like a stack
            outs.append(head(x))
        return torch.cat(outs, dim=-1)
