import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    """Hugging Face GPT2Attention style: one fused c_attn, _split_heads/_merge_heads."""

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError(f"d_out={d_out} must be divisible by num_heads={num_heads}")
        self.embed_dim, self.num_heads, self.head_dim = d_out, num_heads, d_out // num_heads
        self.c_attn = nn.Linear(d_in, 3 * d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out, bias=False)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("bias", torch.tril(torch.ones(context_length, context_length, dtype=torch.bool)))
        self.register_buffer("masked_bias", torch.tensor(-1e4))

    def _split_heads(self, t):
        b, T, _ = t.shape
        return t.view(b, T, self.num_heads, self.head_dim).permute(0, 2, 1, 3)

    def _merge_heads(self, t):
        b, h, T, hd = t.shape
        return t.permute(0, 2, 1, 3).contiguous().view(b, T, h * hd)

    def _attn(self, q, k, v):
        w = torch.matmul(q, k.transpose(-1, -2)) / (v.size(-1) ** 0.5)
        T = q.size(-2)
        w = torch.where(self.bias[:T, :T], w, self.masked_bias.to(w.dtype))
        w = self.dropout(nn.functional.softmax(w, dim=-1))
        return torch.matmul(w, v)

    def forward(self, x):
        q, k, v = self.c_attn(x).split(self.embed_dim, dim=2)
        out = self._attn(self._split_heads(q), self._split_heads(k), self._split_heads(v))
        return self.out_proj(self._merge_heads(out))
