"""The lecture's three versions of the running mean (xbow, wei) and its Head with a `tril`
buffer, in the notebook's names."""

import torch
import torch.nn as nn
from torch.nn import functional as F


def causal_average_loop(x):
    B, T, C = x.shape
    xbow = torch.zeros_like(x)
    for b in range(B):
        for t in range(T):
            xprev = x[b, : t + 1]  # (t, C)
            xbow[b, t] = torch.mean(xprev, 0)
    return xbow


def causal_average_matmul(x):
    T = x.shape[1]
    wei = torch.tril(torch.ones(T, T, device=x.device, dtype=x.dtype))
    wei = wei / wei.sum(1, keepdim=True)
    return wei @ x  # (B, T, T) @ (B, T, C) ----> (B, T, C)


def causal_average_softmax(x):
    T = x.shape[1]
    tril = torch.tril(torch.ones(T, T, device=x.device))
    wei = torch.zeros((T, T), device=x.device, dtype=x.dtype)
    wei = wei.masked_fill(tril == 0, float("-inf"))
    wei = F.softmax(wei, dim=-1)
    return wei @ x


class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.register_buffer("tril", torch.tril(torch.ones(context_length, context_length)))
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        B, T, C = x.shape
        k = self.W_key(x)  # (B, T, hs)
        q = self.W_query(x)  # (B, T, hs)
        wei = q @ k.transpose(-2, -1) * k.shape[-1] ** -0.5  # (B, T, hs) @ (B, hs, T) -> (B, T, T)
        wei = wei.masked_fill(self.tril[:T, :T] == 0, float("-inf"))  # (B, T, T)
        wei = F.softmax(wei, dim=-1)  # (B, T, T)
        wei = self.dropout(wei)
        v = self.W_value(x)  # (B, T, hs)
        return wei @ v  # (B, T, T) @ (B, T, hs) -> (B, T, hs)
