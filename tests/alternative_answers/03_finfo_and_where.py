"""Masks applied with torch.where and the dtype's most negative number instead of -inf; a
boolean buffer under another name; dropout drawn with torch.bernoulli."""

import torch
from torch import nn


def causal_mask(num_tokens, device=None):
    return ~torch.ones(num_tokens, num_tokens, dtype=torch.bool, device=device).tril()


def mask_and_renormalize(attn_weights):
    num_tokens = attn_weights.shape[-1]
    visible = torch.ones(num_tokens, num_tokens, dtype=torch.bool, device=attn_weights.device).tril()
    kept = torch.where(visible, attn_weights, 0.0)
    return kept / kept.sum(dim=-1, keepdim=True)


def masked_softmax(attn_scores, d_k):
    num_tokens = attn_scores.shape[-1]
    future = torch.ones(num_tokens, num_tokens, dtype=torch.bool, device=attn_scores.device).triu(1)
    lowest = torch.finfo(attn_scores.dtype).min
    return torch.softmax(torch.where(future, lowest, attn_scores / d_k**0.5), dim=-1)


def inverted_dropout(x, p, training=True, generator=None):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"p must be a probability in [0, 1], got {p}")
    if not training or p == 0.0:
        return x
    if p == 1.0:
        return torch.zeros_like(x)
    keep = torch.bernoulli(torch.full_like(x, 1.0 - p), generator=generator)
    return x * keep / (1.0 - p)


class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        future = torch.ones(context_length, context_length, dtype=torch.bool).triu(diagonal=1)
        self.register_buffer("is_future", future)

    def forward(self, x):
        num_tokens = x.shape[1]
        queries, keys, values = self.W_query(x), self.W_key(x), self.W_value(x)
        scores = queries @ keys.transpose(-2, -1) / keys.shape[-1] ** 0.5
        hidden = self.is_future[:num_tokens, :num_tokens]
        scores = torch.where(hidden, torch.finfo(scores.dtype).min, scores)
        return self.dropout(scores.softmax(dim=-1)) @ values
