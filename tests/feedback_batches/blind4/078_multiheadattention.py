import math

import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    """Causal multi-head attention with one projection split across the heads.

    Attributes: W_query, W_key, W_value, out_proj (nn.Linear, created in that order; the grader
    loads its weights into them by name), dropout (nn.Dropout, on the attention weights: the
    trained demos read the weights as they pass through it), and the causal mask, a buffer.
    forward: x (b, T, d_in) with T <= context_length -> (b, T, d_out)
    """

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError(f"d_out ({d_out}) is not divisible by num_heads ({num_heads})")
        self.num_heads = num_heads
        self.head_dim = d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.ones(context_length, context_length, dtype=torch.bool).triu(1))

    def forward(self, x):
        T = x.shape[1]
        queries, keys, values = self.W_query(x), self.W_key(x), self.W_value(x)  # (b, T, d_out)
        mask = self.mask[:T, :T]
        # one head at a time: head h owns features h*head_dim .. (h+1)*head_dim - 1
        per_head_weights, per_head_values = [], []
        for h in range(self.num_heads):
            cols = slice(h * self.head_dim, (h + 1) * self.head_dim)
            q, k = queries[..., cols], keys[..., cols]  # (b, T, head_dim)
            scores = (q @ k.transpose(-2, -1)).masked_fill(mask, float("-inf")) / math.sqrt(self.head_dim)
            per_head_weights.append(torch.softmax(scores, dim=-1))
            per_head_values.append(values[..., cols])
        weights = self.dropout(torch.stack(per_head_weights, dim=1))  # (b, h, T, T), all heads at once
        context = [weights[:, h] @ per_head_values[h] for h in range(self.num_heads)]
        return self.out_proj(torch.cat(context, dim=-1))
