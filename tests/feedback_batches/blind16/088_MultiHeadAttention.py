import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    """Causal multi-head attention with one projection split across the heads."""

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        head_dim, remainder = divmod(d_out, num_heads)
        if remainder:
            raise ValueError(f"d_out ({d_out}) must be a multiple of num_heads ({num_heads})")
        self.num_heads, self.head_dim = num_heads, head_dim
        self.scaling = head_dim ** -0.5
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        # an additive bias, as xformers and fairseq use: 0 where a query may look, -inf where it may not
        future_bias = torch.full((context_length, context_length), float("-inf")).triu(1)
        self.register_buffer("attn_bias", future_bias)

    def forward(self, x):
        b, T, _ = x.shape

        def heads(t):  # (b, T, d_out) -> (b, h, T, hd)
            return t.view(b, T, self.num_heads, self.head_dim).transpose(1, 2)

        q = heads(self.W_query(x) * self.scaling)
        k = heads(self.W_key(x))
        v = heads(self.W_value(x))
        attn = torch.matmul(q, k.transpose(-1, -2)) + self.attn_bias[:T, :T]
        attn = self.dropout(attn.softmax(dim=-1))
        out = torch.matmul(attn, v).transpose(1, 2).flatten(2)  # flatten copies when it has to
        return self.out_proj(out)
