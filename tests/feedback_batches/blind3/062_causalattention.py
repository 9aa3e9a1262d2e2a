import torch
import torch.nn.functional as F
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
        self.dropout = dropout  # the drop probability
        self.register_buffer(
            "mask", torch.triu(torch.ones(context_length, context_length, dtype=torch.bool), 1)
        )

    def forward(self, x):
        """x: (b, T, d_in) with T <= context_length -> context vectors (b, T, d_out)."""
        T = x.size(1)
        q, k, v = self.W_query(x), self.W_key(x), self.W_value(x)
        att = (q @ k.transpose(-2, -1)).masked_fill(self.mask[:T, :T], float("-inf"))
        att = F.softmax(att / k.size(-1) ** 0.5, dim=-1)
        att = F.dropout(att, p=self.dropout, training=self.training)
        return att @ v
