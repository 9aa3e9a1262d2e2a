import math

import torch
from torch import nn


class MultiHeadAttention(CausalAttention):
    """Causal multi-head attention built on the notebook's CausalAttention head.

    The parent creates W_query, W_key, W_value (in that order), dropout and the buffer mask;
    this class adds the heads and out_proj.
    """

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        if d_out % num_heads != 0:
            raise ValueError(f"d_out ({d_out}) is not divisible by num_heads ({num_heads})")
        super().__init__(d_in, d_out, context_length, dropout, qkv_bias)
        self.num_heads = num_heads
        self.out_proj = nn.Linear(d_out, d_out)

    def forward(self, x):
        T = x.shape[1]
        q, k, v = (split_heads(layer(x), self.num_heads) for layer in (self.W_query, self.W_key, self.W_value))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(k.shape[-1])  # (b, h, T, T)
        scores = scores.masked_fill(self.mask[:T, :T], float("-inf"))
        weights = self.dropout(scores.softmax(dim=-1))
        return self.out_proj(merge_heads(weights @ v))
