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
        self.dropout = nn.Dropout(dropout)
        self.register_buffer(
            "mask", torch.triu(torch.ones(context_length, context_length, dtype=torch.bool), diagonal=1)
        )

    def forward(self, x):
        """x: (b, T, d_in) with T <= context_length -> context vectors (b, T, d_out)."""
        T = x.shape[1]
        # the fused kernel does scaling, masking, softmax and the weighted sum in one go
        return F.scaled_dot_product_attention(
            self.W_query(x), self.W_key(x), self.W_value(x),
            attn_mask=self.mask[:T, :T],
            dropout_p=self.dropout.p if self.training else 0.0,
        )
