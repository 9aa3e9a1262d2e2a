"""Correct answers to 04_multi_head_attention in other idioms than the solution's.

Each top-level definition replaces the answer cell of the stage it is named after; the
imports above are copied into every such cell. CausalAttention is the notebook's own.
"""

import torch
import torch.nn.functional as F
from torch import nn


class MultiHeadAttentionWrapper(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        self.heads = nn.ModuleList()
        for _ in range(num_heads):
            self.heads.append(CausalAttention(d_in, d_out, context_length, dropout, qkv_bias))  # noqa: F821

    def forward(self, x):
        return torch.concat(tuple(head(x) for head in self.heads), dim=2)


def wrapper_with_2d_output(d_in, context_length, dropout):
    return MultiHeadAttentionWrapper(d_in=d_in, d_out=1, context_length=context_length,
                                     dropout=dropout, num_heads=2)


def split_heads(x, num_heads):
    if x.shape[-1] % num_heads:
        raise ValueError(f"{x.shape[-1]} features do not split into {num_heads} equal heads")
    return x.unflatten(-1, (num_heads, -1)).permute(0, 2, 1, 3)


def merge_heads(x):
    return x.permute(0, 2, 1, 3).flatten(start_dim=2)


class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads:
            raise ValueError("d_out must be divisible by num_heads")
        self.num_heads = num_heads
        self.dropout = dropout
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        future = torch.ones(context_length, context_length).triu(diagonal=1).bool()
        self.register_buffer("mask", future, persistent=False)

    def forward(self, x):
        b, num_tokens, d_out = x.shape[0], x.shape[1], self.out_proj.in_features
        heads = [
            layer(x).reshape(b, num_tokens, self.num_heads, -1).permute(0, 2, 1, 3)
            for layer in (self.W_query, self.W_key, self.W_value)
        ]
        context = F.scaled_dot_product_attention(
            *heads, is_causal=True, dropout_p=self.dropout if self.training else 0.0
        )  # (b, h, T, hd)
        return self.out_proj(context.permute(0, 2, 1, 3).reshape(b, num_tokens, d_out))


def gpt2_small_attention():
    return MultiHeadAttention(d_in=768, d_out=768, context_length=1024, dropout=0.0,
                              num_heads=12, qkv_bias=False)
