import torch
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
        self.dropout = nn.Dropout(dropout)
        position = torch.arange(context_length)
        # hidden[i, j] is True when key j comes after query i
        self.register_buffer("hidden", position.unsqueeze(0) > position.unsqueeze(1))

    def forward(self, x):
        """x: (b, T, d_in) with T <= context_length -> context vectors (b, T, d_out)."""
        T = x.shape[-2]
        q, k, v = self.W_query(x), self.W_key(x), self.W_value(x)
        scores = torch.einsum("bqd,bkd->bqk", q, k) / k.shape[-1] ** 0.5
        scores = torch.where(self.hidden[:T, :T], float("-inf"), scores)
        weights = self.dropout(scores.softmax(dim=-1))
        return torch.einsum("bqk,bkd->bqd", weights, v)
