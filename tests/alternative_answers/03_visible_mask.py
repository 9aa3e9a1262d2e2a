"""A boolean buffer where True means visible, inverted when filling; ones_like masks."""

import torch
import torch.nn.functional as F
from torch import nn


def causal_mask(num_tokens, device=None):
    return torch.ones(num_tokens, num_tokens, device=device).triu(diagonal=1) == 1


def mask_and_renormalize(attn_weights):
    lower = attn_weights.tril()
    return lower / lower.sum(-1, keepdim=True)


def masked_softmax(attn_scores, d_k):
    hidden = torch.ones_like(attn_scores, dtype=torch.bool).triu(1)
    return F.softmax(attn_scores.masked_fill(hidden, float("-inf")) * d_k ** -0.5, -1)


def inverted_dropout(x, p, training=True, generator=None):
    if not 0 <= p <= 1:
        raise ValueError(f"p out of range: {p}")
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    keep = torch.rand(x.size(), generator=generator, dtype=x.dtype, device=x.device).ge(p)
    return x.mul(keep).div(1 - p)


class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.drop = nn.Dropout(dropout)
        self.register_buffer("visible", torch.ones(context_length, context_length, dtype=torch.bool).tril(),
                             persistent=False)

    def forward(self, x):
        t = x.size(1)
        q, k, v = self.W_query(x), self.W_key(x), self.W_value(x)
        s = q @ k.mT / k.size(-1) ** 0.5
        s = s.masked_fill(~self.visible[:t, :t], float("-inf"))
        return self.drop(s.softmax(-1)) @ v
