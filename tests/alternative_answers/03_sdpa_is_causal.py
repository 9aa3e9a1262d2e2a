"""F.scaled_dot_product_attention with is_causal=True and no mask at all; its dropout_p while
training; even the running mean as attention with equal scores."""

import torch
import torch.nn.functional as F
from torch import nn


def causal_average_softmax(x):
    equal_scores = torch.zeros(*x.shape[:-1], 1, dtype=x.dtype, device=x.device)  # (B, T, 1)
    return F.scaled_dot_product_attention(equal_scores, equal_scores, x, is_causal=True)


class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.context_length = context_length
        self.dropout = dropout
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)

    def forward(self, x):
        return F.scaled_dot_product_attention(
            self.W_query(x), self.W_key(x), self.W_value(x),
            dropout_p=self.dropout if self.training else 0.0, is_causal=True,
        )
