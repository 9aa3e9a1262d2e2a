import logging
import math
import torch
from torch import nn

logger = logging.getLogger(__name__)


class MultiHeadAttention(nn.Module):
    """Defensive, logged, with torch.bmm over (b*h) batches."""

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if num_heads <= 0 or d_out % num_heads != 0:
            raise ValueError(f"d_out={d_out} must be a multiple of num_heads={num_heads}")
        self.d_out, self.num_heads, self.head_dim = d_out, num_heads, d_out // num_heads
        self.context_length = context_length
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length, dtype=torch.bool), 1))
        logger.debug("MHA: %d heads of %d features", num_heads, self.head_dim)

    def forward(self, x):
        b, T, _ = x.shape
        if T > self.context_length:
            raise ValueError(f"sequence of {T} tokens exceeds context_length={self.context_length}")
        h, hd = self.num_heads, self.head_dim

        def to_batches(t):  # (b, T, d_out) -> (b*h, T, hd)
            return t.view(b, T, h, hd).transpose(1, 2).reshape(b * h, T, hd)

        q, k, v = to_batches(self.W_query(x)), to_batches(self.W_key(x)), to_batches(self.W_value(x))
        scores = torch.bmm(q, k.transpose(1, 2)) / math.sqrt(hd)             # (b*h, T, T)
        scores = scores.view(b, h, T, T).masked_fill(self.mask[:T, :T], float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-1))                 # (b, h, T, T)
        context = torch.bmm(weights.reshape(b * h, T, T), v)                  # (b*h, T, hd)
        context = context.view(b, h, T, hd).transpose(1, 2).reshape(b, T, self.d_out)
        logger.debug("MHA output %s", tuple(context.shape))
        return self.out_proj(context)
