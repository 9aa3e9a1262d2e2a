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
        # the mask can always be rebuilt, so keep it out of checkpoints
        self.register_buffer(
            "mask",
            torch.triu(torch.ones(context_length, context_length, dtype=torch.bool), diagonal=1),
            persistent=False,
        )

    def forward(self, x):
        """x: (b, T, d_in) with T <= context_length -> context vectors (b, T, d_out)."""
        b, T, _ = x.shape
        q, k, v = self.W_query(x), self.W_key(x), self.W_value(x)
        scores = q @ k.transpose(1, 2)
        scores = scores.masked_fill(self.mask[:T, :T], float("-inf"))
        weights = torch.softmax(scores / k.shape[-1] ** 0.5, dim=-1)
        weights = self.dropout(weights)
        return weights @ v
