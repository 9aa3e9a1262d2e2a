import torch
import torch.nn as nn


class MultiHeadAttention(nn.Module):
    """x-transformers flavour: einsum everywhere, manual 'rearrange'."""

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads:
            raise ValueError(f"d_out ({d_out}) is not divisible by num_heads ({num_heads})")
        self.h = num_heads
        self.scale = (d_out // num_heads) ** -0.5
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        i = torch.arange(context_length)
        self.register_buffer("causal", i[:, None] < i[None, :], persistent=False)

    def _heads(self, t):  # 'b n (h d) -> b h n d'
        b, n, hd = t.shape
        return t.reshape(b, n, self.h, hd // self.h).permute(0, 2, 1, 3)

    def forward(self, x):
        n = x.shape[-2]
        q, k, v = map(self._heads, (self.W_query(x), self.W_key(x), self.W_value(x)))
        sim = torch.einsum("bhid,bhjd->bhij", q, k) * self.scale
        sim = sim.masked_fill(self.causal[:n, :n], -torch.finfo(sim.dtype).max)
        attn = self.dropout(sim.softmax(dim=-1))
        out = torch.einsum("bhij,bhjd->bhid", attn, v)
        out = out.permute(0, 2, 1, 3).reshape(x.shape[0], n, -1)   # 'b h n d -> b n (h d)'
        return self.out_proj(out)
