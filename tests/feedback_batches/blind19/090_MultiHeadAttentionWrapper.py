import torch
from torch import nn


class MultiHeadAttentionWrapper(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        make_head = lambda _: CausalAttention(d_in, d_out, context_length, dropout, qkv_bias)  # noqa: E731
        self.heads = nn.ModuleList(map(make_head, range(num_heads)))

    def forward(self, x):
        return torch.cat(tuple(head(x) for head in self.heads), dim=-1)  # head 0's features first
