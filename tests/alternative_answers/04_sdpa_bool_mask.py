"""F.scaled_dot_product_attention given a boolean mask where True means "may attend" (its own
convention), kept as a (1, 1, L, L) buffer called `causal`; split and merge with einops-style
permutes; GPT-2 built with positional arguments."""

import torch
import torch.nn.functional as F
from torch import nn


def split_heads(x, num_heads):
    if x.shape[2] % num_heads != 0:
        raise ValueError(f"d_out = {x.shape[2]} is not divisible by num_heads = {num_heads}")
    return x.view(*x.shape[:2], num_heads, -1).permute(0, 2, 1, 3)


def merge_heads(x):
    return x.permute(0, 2, 1, 3).contiguous().view(x.shape[0], x.shape[2], -1)


class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError("d_out is not divisible by num_heads")
        self.num_heads = num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout_p = dropout
        allowed = torch.ones(context_length, context_length, dtype=torch.bool).tril()
        self.register_buffer("causal", allowed.view(1, 1, context_length, context_length))

    def forward(self, x):
        t = x.shape[1]
        q, k, v = (split_heads(layer(x), self.num_heads) for layer in (self.W_query, self.W_key, self.W_value))
        context = F.scaled_dot_product_attention(q, k, v, attn_mask=self.causal[:, :, :t, :t],
                                                 dropout_p=self.dropout_p if self.training else 0.0)
        return self.out_proj(merge_heads(context))


def gpt2_small_attention():
    return MultiHeadAttention(768, 768, 1024, 0.0, 12, False)
