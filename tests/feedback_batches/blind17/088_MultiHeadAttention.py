import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    """Causal multi-head attention with one projection split across the heads.

    Attributes: W_query, W_key, W_value, out_proj (nn.Linear, created in that order), dropout
    (nn.Dropout, on the attention weights) and the causal mask, a buffer.
    Raises ValueError when d_out is not divisible by num_heads.
    forward: x (b, T, d_in) with T <= context_length -> (b, T, d_out)
    """

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads:
            raise ValueError(f"d_out={d_out} must be divisible by num_heads={num_heads}")
        self.num_heads = num_heads
        self.head_dim = d_out // num_heads
        self.scaling = self.head_dim ** -0.5
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("future_mask", torch.ones(context_length, context_length, dtype=torch.bool).triu(1))

    def _fold_heads(self, t):
        # (b, T, d_out) -> (b * h, T, hd): every (sequence, head) pair is one entry of a bmm batch, as fairseq does
        b, T, _ = t.shape
        t = t.view(b, T, self.num_heads, self.head_dim).transpose(1, 2)
        return t.reshape(b * self.num_heads, T, self.head_dim)

    def forward(self, x):
        b, T, _ = x.shape
        q = self._fold_heads(self.W_query(x) * self.scaling)  # scale the queries once
        k = self._fold_heads(self.W_key(x))
        v = self._fold_heads(self.W_value(x))
        attn = torch.bmm(q, k.transpose(1, 2))  # (b * h, T, T)
        attn = attn.masked_fill(self.future_mask[:T, :T], float("-inf"))
        attn = self.dropout(torch.softmax(attn, dim=-1))
        out = torch.bmm(attn, v)  # (b * h, T, hd)
        out = out.view(b, self.num_heads, T, self.head_dim).transpose(1, 2).reshape(b, T, -1)
        return self.out_proj(out)
