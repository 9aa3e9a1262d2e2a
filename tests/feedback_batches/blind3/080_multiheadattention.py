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
            raise ValueError(f"d_out={d_out} is not divisible by num_heads={num_heads}")
        self.d_out = d_out
        self.num_heads = num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1))

    def forward(self, x):
        b, T, _ = x.shape
        # one fused projection (like nanoGPT's c_attn), then cut into q, k, v
        w_qkv = torch.cat([self.W_query.weight, self.W_key.weight, self.W_value.weight], dim=0)
        q, k, v = F.linear(x, w_qkv).split(self.d_out, dim=-1)
        q, k, v = (split_heads(t, self.num_heads) for t in (q, k, v))
        att = q @ k.transpose(-2, -1)
        att = att.masked_fill(self.mask.bool()[:T, :T], float("-inf"))
        att = self.dropout(F.softmax(att / k.size(-1) ** 0.5, dim=-1))
        return self.out_proj(merge_heads(att @ v))
