"""Batched products with torch.bmm and einsum; a (1, T, T) float mask registered as a
non-persistent buffer; the scores divided in place on a fresh tensor; dropout through
F.dropout with the module's training flag."""

import math

import torch
import torch.nn.functional as F
from torch import nn


def causal_average_matmul(x):
    num_tokens = x.shape[1]
    weights = torch.ones(num_tokens, num_tokens, dtype=x.dtype, device=x.device).tril_()
    weights /= weights.sum(dim=-1, keepdim=True)
    return torch.einsum("ts,bsc->btc", weights, x)


def masked_softmax(attn_scores, d_k):
    num_tokens = attn_scores.shape[-1]
    future = torch.ones(num_tokens, num_tokens, device=attn_scores.device).triu(1).bool()
    return attn_scores.masked_fill(future, float("-inf")).div(math.sqrt(d_k)).softmax(dim=-1)


class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.p = dropout
        upper = torch.triu(torch.ones(1, context_length, context_length), diagonal=1)
        self.register_buffer("attn_mask", upper, persistent=False)  # (1, L, L), 1 = hidden

    def forward(self, x):
        t = x.size(1)
        q, k, v = self.W_query(x), self.W_key(x), self.W_value(x)
        scores = torch.bmm(q, k.transpose(1, 2))
        scores /= math.sqrt(k.size(-1))
        scores = scores.masked_fill(self.attn_mask[:, :t, :t].bool(), -math.inf)
        weights = F.dropout(torch.softmax(scores, dim=2), p=self.p, training=self.training)
        return torch.einsum("bts,bsd->btd", weights, v)
