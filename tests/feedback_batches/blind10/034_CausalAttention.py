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
        self.register_buffer(
            "mask", torch.triu(torch.ones(context_length, context_length), diagonal=1).bool()
        )

    def forward(self, x):
        """x: (b, T, d_in) with T <= context_length -> context vectors (b, T, d_out)."""
        T = x.shape[1]
        queries = self.W_query(x)
        keys = self.W_key(x)
        values = self.W_value(x)
        scores = queries @ keys.transpose(1, 2) / keys.shape[-1] ** 0.5
        scores = scores.masked_fill(self.mask[:T, :T], -torch.inf)
        weights = torch.softmax(scores, dim=-1)
        context = weights @ values
        # regularise the output of the head
        return self.dropout(context)
