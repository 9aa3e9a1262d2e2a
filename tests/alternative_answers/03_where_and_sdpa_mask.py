"""Correct answers to 03_causal_attention in other idioms than the solution's.

Each top-level definition replaces the answer cell of the stage it is named after; the
imports above are copied into every such cell.
"""

import torch
import torch.nn.functional as F
from torch import nn


def causal_average_loop(x):
    running_sum = torch.zeros_like(x[:, 0])
    means = []
    for t in range(x.shape[1]):
        running_sum = running_sum + x[:, t]
        means.append(running_sum / (t + 1))
    return torch.stack(means, dim=1)


def causal_average_matmul(x):
    num_tokens = x.size(1)
    lower = torch.ones(num_tokens, num_tokens, dtype=x.dtype, device=x.device).tril()
    return torch.einsum("ts,bsc->btc", lower / lower.sum(-1, keepdim=True), x)


def causal_average_softmax(x):
    num_tokens = x.size(1)
    positions = torch.arange(num_tokens, device=x.device)
    visible = positions[None, :] <= positions[:, None]
    scores = torch.where(visible, 0.0, float("-inf")).to(x.dtype)
    return torch.matmul(F.softmax(scores, dim=1), x)


def causal_mask(num_tokens, device=None):
    positions = torch.arange(num_tokens, device=device)
    return positions.unsqueeze(0) > positions.unsqueeze(1)


def mask_and_renormalize(attn_weights):
    num_tokens = attn_weights.size(-1)
    keep = torch.ones(num_tokens, num_tokens, device=attn_weights.device).tril().bool()
    kept = torch.where(keep, attn_weights, torch.zeros_like(attn_weights))
    return kept / kept.sum(-1, keepdim=True)


def masked_softmax(attn_scores, d_k):
    num_tokens = attn_scores.size(-1)
    hidden = torch.ones(num_tokens, num_tokens, device=attn_scores.device).triu(1).bool()
    scaled = attn_scores * d_k**-0.5
    return F.softmax(torch.where(hidden, float("-inf"), scaled), dim=-1)


def inverted_dropout(x, p, training=True, generator=None):
    if p < 0 or p > 1:
        raise ValueError(f"p must lie in [0, 1], not {p}")
    if not training or p == 0:
        return x.clone()
    if p == 1:
        return x * 0
    keep = torch.empty_like(x).bernoulli_(1 - p, generator=generator)
    return x * keep * (1 / (1 - p))


class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout_p = dropout
        visible = torch.ones(context_length, context_length, dtype=torch.bool).tril()
        self.register_buffer("mask", visible, persistent=False)  # True = may attend

    def forward(self, x):
        num_tokens = x.size(1)
        return F.scaled_dot_product_attention(
            self.W_query(x), self.W_key(x), self.W_value(x),
            attn_mask=self.mask[:num_tokens, :num_tokens],
            dropout_p=self.dropout_p if self.training else 0.0,
        )
