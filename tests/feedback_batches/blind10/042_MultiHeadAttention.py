import math
import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    """Causal multi-head attention with one projection split across the heads.
    Attributes: W_query, W_key, W_value, out_proj (nn.Linear, created in that order), dropout
    (nn.Dropout, on the attention weights) and the causal mask, a buffer.
    Raises ValueError when d_out is not divisible by num_heads.
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
        self.register_buffer(
            "causal", torch.ones(context_length, context_length, dtype=torch.bool).triu(1)
        )

    def forward(self, x):
        T = x.shape[1]
        # reuse this notebook's split_heads / merge_heads
        q = split_heads(self.W_query(x), self.num_heads)   # (b, h, T, hd)
        k = split_heads(self.W_key(x), self.num_heads)
        v = split_heads(self.W_value(x), self.num_heads)
        scores = torch.matmul(q, k.transpose(-2, -1)) * (1.0 / math.sqrt(self.head_dim))
        scores = scores.masked_fill(self.causal[:T, :T], float("-inf"))
        weights = self.dropout(scores.softmax(dim=-1))     # (b, h, T, T)
        context = merge_heads(torch.matmul(weights, v))    # (b, T, d_out)
        return self.out_proj(context)
