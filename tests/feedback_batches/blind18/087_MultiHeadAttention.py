import math

import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError(f"d_out={d_out} must be divisible by num_heads={num_heads}")
        self.d_out = d_out
        self.num_heads = num_heads
        self.head_dim = d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("causal_mask", torch.ones(context_length, context_length, dtype=torch.bool).triu(1))

    def forward(self, x):
        b, T, _ = x.shape
        q, k, v = (layer(x).view(b, T, self.num_heads, self.head_dim).transpose(1, 2)
                   for layer in (self.W_query, self.W_key, self.W_value))  # (b, h, T, hd) each
        hidden = self.causal_mask[:T, :T]

        def head_weights(q_h, k_h):  # one sequence, one head: (T, hd), (T, hd) -> (T, T)
            scores = q_h @ k_h.T / math.sqrt(k_h.shape[-1])
            return torch.softmax(scores.masked_fill(hidden, -math.inf), dim=-1)

        # written for a single head, batched over heads and then sequences with torch.vmap
        weights = torch.vmap(torch.vmap(head_weights))(q, k)  # (b, h, T, T)
        weights = self.dropout(weights)  # outside vmap, so the random mask needs no vmap randomness flag
        context = (weights @ v).transpose(1, 2).reshape(b, T, self.d_out)
        return self.out_proj(context)
