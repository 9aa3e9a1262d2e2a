import torch
import torch.nn.functional as F
from torch import nn


class MultiHeadAttention(nn.Module):
    """GPT-2's attention: dropout on the weights, and a residual dropout after the projection."""

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads:
            raise ValueError(f"d_out={d_out} is not divisible by num_heads={num_heads}")
        self.n_head = num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.attn_dropout = nn.Dropout(dropout)
        self.resid_dropout = nn.Dropout(dropout)
        self.register_buffer("bias", torch.tril(torch.ones(context_length, context_length))
                             .view(1, 1, context_length, context_length))

    def forward(self, x):
        B, T, C = x.size()
        q = self.W_query(x).view(B, T, self.n_head, -1).transpose(1, 2)
        k = self.W_key(x).view(B, T, self.n_head, -1).transpose(1, 2)
        v = self.W_value(x).view(B, T, self.n_head, -1).transpose(1, 2)
        att = q @ k.transpose(-2, -1)
        att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float("-inf"))
        att = self.attn_dropout(F.softmax(att, dim=-1))
        y = (att @ v).transpose(1, 2).contiguous().view(B, T, -1)
        return self.resid_dropout(self.out_proj(y))
