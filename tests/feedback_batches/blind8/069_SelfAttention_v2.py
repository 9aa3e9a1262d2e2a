import torch
from torch import nn


class SelfAttention_v2(nn.Module):
    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        for name in ("W_query", "W_key", "W_value"):
            setattr(self, name, nn.Linear(d_in, d_out, bias=qkv_bias))

    def forward(self, x):
        # no mask, no dropout: SDPA's default scale is 1/sqrt(E), E the query/key size
        return nn.functional.scaled_dot_product_attention(self.W_query(x), self.W_key(x), self.W_value(x))
