import torch
from torch import nn


class CausalAttention(nn.Module):
    """Single-head causal self-attention over a batch.

    Graded: what forward computes. The grader loads its weights into W_query, W_key and
    W_value (nn.Linear) by name: create them in that order. Keep dropout (nn.Dropout): the
    trained-head demo reads the weights as they pass through it. Register the causal mask as
    a buffer (mask here; any name, or none with is_causal=True).
    """

    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        position = torch.arange(context_length)
        self.register_buffer("mask", position[None, :] > position[:, None])  # key after query

    def forward(self, x):
        """x: (b, T, d_in) with T <= context_length -> context vectors (b, T, d_out)."""
        b, T, _ = x.shape
        queries, keys, values = self.W_query(x), self.W_key(x), self.W_value(x)
        # scores = 0 * empty + alpha * Q K^T in one fused batched call (beta=0 ignores the empty)
        scores = torch.baddbmm(
            torch.empty(b, T, T, dtype=queries.dtype, device=queries.device),
            queries, keys.transpose(1, 2), beta=0.0, alpha=keys.shape[-1] ** -0.5,
        )
        scores = scores.masked_fill(self.mask[:T, :T], torch.finfo(scores.dtype).min)
        weights = self.dropout(torch.softmax(scores, dim=-1))
        return torch.bmm(weights, values)
