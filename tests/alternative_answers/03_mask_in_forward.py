"""The mask made in forward on the input's device instead of a buffer; an additive mask of 0 and
-inf; the dropout layer under another name; dropout that draws a uniform tensor and compares."""

import torch
from torch import nn


def masked_softmax(attn_scores, d_k):
    num_tokens = attn_scores.size(-1)
    additive = torch.full((num_tokens, num_tokens), float("-inf"), device=attn_scores.device).triu(1)
    return torch.softmax(attn_scores / d_k**0.5 + additive, dim=-1)


def inverted_dropout(x, p, training=True, generator=None):
    if p > 1 or p < 0:
        raise ValueError(f"p={p} is not a probability")
    if training is False or p == 0:
        return x
    if p == 1:
        return 0 * x
    survive = torch.empty(x.shape, device=x.device).uniform_(0, 1, generator=generator) > p
    return x * survive.to(x.dtype) * (1 / (1 - p))


class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.attn_drop = nn.Dropout(dropout)

    def forward(self, x):
        b, num_tokens, _ = x.shape
        queries, keys, values = self.W_query(x), self.W_key(x), self.W_value(x)
        additive = torch.full((num_tokens, num_tokens), float("-inf"), device=x.device, dtype=x.dtype).triu(1)
        scores = queries @ keys.transpose(1, 2) / keys.shape[-1] ** 0.5 + additive
        return self.attn_drop(torch.softmax(scores, dim=-1)) @ values
