import math

import torch
from torch import nn


class CausalAttention(nn.Module):
    """Single-head causal self-attention over a batch.

    Graded: what forward computes. The grader loads its weights into W_query, W_key and
    W_value (nn.Linear) by name: create them in that order. Keep dropout (nn.Dropout): the
    trained-head demo reads the weights as they pass through it. Register the causal mask as
    a buffer (mask here; any name, or none with is_causal=True).
    """

    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        # nanoGPT-style: ones where a query may look, with a leading batch axis
        self.register_buffer(
            "bias",
            torch.tril(torch.ones(context_length, context_length)).view(1, context_length, context_length),
        )

    def forward(self, x):
        """x: (b, T, d_in) with T <= context_length -> context vectors (b, T, d_out)."""
        B, T, C = x.size()
        q = self.W_query(x)
        k = self.W_key(x)
        v = self.W_value(x)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = att.masked_fill(self.bias[:, :T, :T] == 0, float("-inf"))
        att = torch.softmax(att, dim=-1)
        att = self.dropout(att)
        return att @ v
