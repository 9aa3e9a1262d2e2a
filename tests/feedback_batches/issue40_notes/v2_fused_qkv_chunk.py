import torch
from torch import nn


class SelfAttention_v2(nn.Module):
    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.qkv = nn.Linear(d_in, 3 * d_out, bias=qkv_bias)

    def forward(self, x):
        queries, keys, values = self.qkv(x).chunk(3, dim=-1)
        scores = queries @ keys.transpose(-2, -1)
        return torch.softmax(scores * keys.shape[-1] ** -0.5, dim=-1) @ values
