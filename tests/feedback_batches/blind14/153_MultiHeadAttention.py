import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    """Causal multi-head attention with one projection split across the heads."""

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError(f"d_out={d_out} is not divisible by num_heads={num_heads}")
        self.num_heads, self.head_dim = num_heads, d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        idx = torch.arange(context_length)
        self.register_buffer("mask", idx[None, :] > idx[:, None])  # True where the key is later

    def _fused_projection(self, x):
        layers = (self.W_query, self.W_key, self.W_value)
        weight = torch.cat([layer.weight for layer in layers], dim=0)  # (3 * d_out, d_in)
        bias = None if layers[0].bias is None else torch.cat([layer.bias for layer in layers])
        return F.linear(x, weight, bias).split(self.num_heads * self.head_dim, dim=-1)

    def forward(self, x):
        b, T, _ = x.shape
        q, k, v = (split_heads(t, self.num_heads) for t in self._fused_projection(x))  # (b, h, T, hd)
        n = b * self.num_heads
        q, k, v = (t.reshape(n, T, self.head_dim) for t in (q, k, v))  # heads become batch entries
        scores = torch.baddbmm(q.new_empty(n, T, T), q, k.transpose(1, 2),
                               beta=0, alpha=self.head_dim ** -0.5)
        scores = scores.masked_fill(self.mask[:T, :T], float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-1))
        context = torch.bmm(weights, v).view(b, self.num_heads, T, self.head_dim)
        return self.out_proj(merge_heads(context))
