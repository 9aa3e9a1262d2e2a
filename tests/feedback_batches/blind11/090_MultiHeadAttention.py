import torch
from torch import nn


class _HeadShapes:
    """Mixin: move between (b, T, d_out) and (b, h, T, hd)."""

    def _split(self, t):
        b, T, _ = t.shape
        return t.view(b, T, self.num_heads, -1).transpose(1, 2)

    @staticmethod
    def _merge(t):
        b, h, T, hd = t.shape
        return t.transpose(1, 2).reshape(b, T, h * hd)


class MultiHeadAttention(_HeadShapes, nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads:
            raise ValueError(f"d_out={d_out} is not divisible by num_heads={num_heads}")
        self.num_heads = num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        additive = torch.full((context_length, context_length), float("-inf")).triu(1)
        self.register_buffer("additive_mask", additive)  # 0 where visible, -inf where hidden

    def forward(self, x):
        T = x.shape[1]
        q, k, v = self._split(self.W_query(x)), self._split(self.W_key(x)), self._split(self.W_value(x))
        scores = q @ k.transpose(-2, -1) / k.shape[-1] ** 0.5
        scores = scores + self.additive_mask[:T, :T].to(scores.dtype)
        return self.out_proj(self._merge(self.dropout(torch.softmax(scores, dim=-1)) @ v))
