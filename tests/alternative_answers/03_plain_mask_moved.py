"""The mask kept as a plain attribute and moved to the input's device in forward (it follows
.to(device) through forward, not as a buffer); mask_and_renormalize with a boolean index."""

import torch
from torch import nn


def mask_and_renormalize(attn_weights):
    num_tokens = attn_weights.shape[-1]
    kept = attn_weights.clone()
    kept[..., torch.ones(num_tokens, num_tokens, dtype=torch.bool, device=kept.device).triu(1)] = 0.0
    return kept / kept.sum(dim=-1, keepdim=True)


class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        self.mask = torch.triu(torch.ones(context_length, context_length, dtype=torch.bool), diagonal=1)

    def forward(self, x):
        t = x.shape[1]
        keys = self.W_key(x)
        scores = self.W_query(x) @ keys.transpose(1, 2) / keys.shape[-1] ** 0.5
        scores = scores.masked_fill(self.mask[:t, :t].to(x.device), float("-inf"))
        return self.dropout(torch.softmax(scores, dim=-1)) @ self.W_value(x)
