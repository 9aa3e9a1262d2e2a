import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.d_out = d_out
        self.in_proj = nn.Linear(d_in, 3 * d_out, bias=qkv_bias)  # PyTorch's MultiheadAttention keeps them so
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length, dtype=torch.bool), 1))

    def forward(self, x):
        T = x.shape[1]
        q, k, v = F.linear(x, self.in_proj.weight, self.in_proj.bias).split(self.d_out, dim=-1)
        scores = (q @ k.mT).masked_fill(self.mask[:T, :T], -torch.inf)
        return self.dropout(F.softmax(scores / self.d_out**0.5, dim=-1)) @ v
