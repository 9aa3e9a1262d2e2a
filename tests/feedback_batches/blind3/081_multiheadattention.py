import math

import torch
import torch.nn.functional as F
from torch import nn


class MultiHeadAttention(nn.Module):
    """Causal multi-head attention with one projection split across the heads.

    Graded: what forward computes. The grader loads its weights into W_query, W_key, W_value
    (nn.Linear(d_in, d_out)) and out_proj (nn.Linear(d_out, d_out)) by name: create them in
    that order. Keep dropout (nn.Dropout): the two-heads demo reads the weights as they pass
    through it. Register the causal mask as a buffer (mask here; any name, or none with
    is_causal=True).
    forward: x (b, T, d_in) with T <= context_length -> (b, T, d_out)
    """

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError(f"d_out={d_out} must be a multiple of num_heads={num_heads}")
        self.n_head = num_heads
        self.n_embd = d_out
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        # nanoGPT: lower triangle of ones, shaped to broadcast over (B, nh, T, T)
        self.register_buffer(
            "bias",
            torch.tril(torch.ones(context_length, context_length)).view(1, 1, context_length, context_length),
        )

    def forward(self, x):
        B, T, _ = x.size()
        hs = self.n_embd // self.n_head
        q = self.W_query(x).view(B, T, self.n_head, hs).transpose(1, 2)  # (B, nh, T, hs)
        k = self.W_key(x).view(B, T, self.n_head, hs).transpose(1, 2)
        v = self.W_value(x).view(B, T, self.n_head, hs).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(hs))
        att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float("-inf"))
        att = F.softmax(att, dim=-1)
        att = self.dropout(att)
        y = att @ v  # (B, nh, T, hs)
        y = y.transpose(1, 2).contiguous().view(B, T, self.n_embd)
        return self.out_proj(y)
