import torch
from torch import nn


class CausalAttention(nn.Module):
    """Single-head causal self-attention over a batch.

    Attributes: W_query, W_key, W_value (nn.Linear, created in that order), dropout
    (nn.Dropout, on the attention weights) and the causal mask, a buffer.
    """

    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.d_out = d_out
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("tri", torch.ones(context_length, context_length, dtype=torch.bool).triu(1))

    def forward(self, x):
        """x: (b, T, d_in) with T <= context_length -> context vectors (b, T, d_out)."""
        T = x.shape[1]
        q, k, v = self.W_query(x), self.W_key(x), self.W_value(x)
        # baddbmm: beta * input + alpha * (q @ kᵀ) per sequence; beta=0 keeps only the scaled product
        scores = torch.baddbmm(q.new_zeros(1, 1, 1), q, k.transpose(1, 2), beta=0.0, alpha=self.d_out ** -0.5)
        scores = scores.masked_fill(self.tri[:T, :T], float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-1))
        return torch.bmm(weights, v)
