import math

import torch
import torch.nn.functional as F
from torch import nn


class CausalAttention(nn.Module):
    """Single-head causal self-attention over a batch.

    Attributes: W_query, W_key, W_value (nn.Linear, created in that order; the grader loads its
    weights into them by name), dropout (nn.Dropout, on the attention weights: the trained-head
    demo reads the weights as they pass through it), and the causal mask, a buffer.
    """

    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(p=dropout)
        # ones where a query may look; the zeros above the diagonal get -inf
        self.register_buffer("allowed", torch.tril(torch.ones(context_length, context_length)))

    def forward(self, x):
        """x: (b, T, d_in) with T <= context_length -> context vectors (b, T, d_out)."""
        num_tokens = x.size(1)
        keys = self.W_key(x)
        queries = self.W_query(x)
        values = self.W_value(x)
        scores = torch.bmm(queries, keys.mT) * (1.0 / math.sqrt(keys.size(-1)))
        scores = scores.masked_fill(self.allowed[:num_tokens, :num_tokens] == 0, float("-inf"))
        weights = F.softmax(scores, dim=2)
        weights = self.dropout(weights)
        return torch.bmm(weights, values)
