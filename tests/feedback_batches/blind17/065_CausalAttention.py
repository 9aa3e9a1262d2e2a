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
        # True where a query may look (itself and the past)
        self.register_buffer("visible", torch.ones(context_length, context_length, dtype=torch.bool).tril())

    def forward(self, x):
        """x: (b, T, d_in) with T <= context_length -> context vectors (b, T, d_out)."""
        b, T, _ = x.shape
        q, k, v = self.W_query(x), self.W_key(x), self.W_value(x)
        # additive bias: 0 where visible, -inf where hidden
        bias = torch.zeros(T, T, dtype=q.dtype, device=q.device).masked_fill(~self.visible[:T, :T], float("-inf"))
        # baddbmm computes bias + alpha * (q @ k^T) in one call, the 1/sqrt(d_k) folded into alpha
        scores = torch.baddbmm(bias.expand(b, T, T), q, k.transpose(1, 2), alpha=k.shape[-1] ** -0.5)
        weights = self.dropout(scores.softmax(dim=-1))  # (b, T, T)
        return torch.bmm(weights, v)
