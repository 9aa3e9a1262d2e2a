import torch
from torch import nn
import torch.nn.functional as F


class SelfAttention_v2(nn.Module):
    """Self-attention with nn.Linear projections; the attention itself is PyTorch's fused kernel."""

    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)

    def forward(self, x):
        # (T, d_out) each; SDPA scales by 1/sqrt(d_out) by default and accepts an unbatched (T, E)
        return F.scaled_dot_product_attention(self.W_query(x), self.W_key(x), self.W_value(x))
