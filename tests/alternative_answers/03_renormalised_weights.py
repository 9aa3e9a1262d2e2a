"""The book's first way, in the module too: softmax over every score, the future zeroed with a
lower-triangular buffer, the rows renormalised; masked_softmax from exponentials by hand."""

import torch
from torch import nn


def masked_softmax(attn_scores, d_k):
    num_tokens = attn_scores.shape[-1]
    visible = torch.tril(torch.ones(num_tokens, num_tokens, dtype=attn_scores.dtype, device=attn_scores.device))
    scaled = attn_scores / d_k**0.5
    # a hidden score takes no part, however large: not in the shift, and exp(-inf) = 0
    seen = scaled.masked_fill(visible == 0, float("-inf"))
    exps = torch.exp(seen - seen.max(dim=-1, keepdim=True).values)
    return exps / exps.sum(dim=-1, keepdim=True)


class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("visible", torch.tril(torch.ones(context_length, context_length)))

    def forward(self, x):
        num_tokens = x.shape[1]
        queries, keys, values = self.W_query(x), self.W_key(x), self.W_value(x)
        weights = torch.softmax(queries @ keys.transpose(1, 2) / keys.shape[-1] ** 0.5, dim=-1)
        weights = weights * self.visible[:num_tokens, :num_tokens]
        weights = weights / weights.sum(dim=-1, keepdim=True)
        return self.dropout(weights) @ values
