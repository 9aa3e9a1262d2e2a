import math
import torch
from torch import nn


class CausalAttention(nn.Module):
    """Single-head causal self-attention over a batch.
    Attributes: W_query, W_key, W_value (nn.Linear, created in that order), dropout
    (nn.Dropout, on the attention weights) and the causal mask, a buffer.
    """
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        idx = torch.arange(context_length)
        # True above the diagonal = the key is in the future
        self.register_buffer("future", idx[None, :] > idx[:, None])

    def forward(self, x):
        """x: (b, T, d_in) with T <= context_length -> context vectors (b, T, d_out)."""
        num_tokens = x.shape[1]
        q, k, v = self.W_query(x), self.W_key(x), self.W_value(x)
        # one (T, T) score matrix per sequence of the batch
        scores = torch.einsum("bqd,bkd->bqk", q, k) / math.sqrt(k.shape[-1])
        hide = self.future[:num_tokens, :num_tokens]
        scores = torch.where(hide, torch.full_like(scores, float("-inf")), scores)
        weights = self.dropout(torch.softmax(scores, dim=-1))
        return torch.einsum("bqk,bkd->bqd", weights, v)
