"""nanoGPT's flash path: F.scaled_dot_product_attention with is_causal=True and no mask buffer,
dropout_p while training and a residual dropout after out_proj; heads split with view and
merged with reshape."""

import torch.nn.functional as F
from torch import nn


def split_heads(x, num_heads):
    b, t, c = x.size()
    if c % num_heads != 0:
        raise ValueError(f"cannot split {c} features into {num_heads} heads")
    return x.view(b, t, num_heads, c // num_heads).transpose(1, 2)


def merge_heads(x):
    b, h, t, hd = x.size()
    return x.transpose(1, 2).reshape(b, t, h * hd)


class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads:
            raise ValueError(f"d_out={d_out} is not a multiple of num_heads={num_heads}")
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.num_heads = num_heads
        self.dropout = dropout
        self.resid_dropout = nn.Dropout(dropout)

    def forward(self, x):
        q = split_heads(self.W_query(x), self.num_heads)
        k = split_heads(self.W_key(x), self.num_heads)
        v = split_heads(self.W_value(x), self.num_heads)
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=None,
                                           dropout_p=self.dropout if self.training else 0, is_causal=True)
        return self.resid_dropout(self.out_proj(merge_heads(y)))


def gpt2_small_attention():
    return MultiHeadAttention(768, 768, 1024, 0.0, 12)
