import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads:
            raise ValueError(f"d_out={d_out} must be divisible by num_heads={num_heads}")
        self.num_heads, self.head_dim = num_heads, d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("lower", torch.ones(context_length, context_length).tril())

    def forward(self, x):
        b, T, _ = x.shape
        h, hd = self.num_heads, self.head_dim
        q = self.W_query(x).view(b, T, h, hd).permute(0, 2, 1, 3)
        k = self.W_key(x).view(b, T, h, hd).permute(0, 2, 1, 3)
        v = self.W_value(x).view(b, T, h, hd).permute(0, 2, 1, 3)
        s = q @ k.transpose(-2, -1) / hd ** 0.5
        visible = self.lower[:T, :T]                      # 1 where the key may be seen
        s = s.masked_fill(visible == 0, float("-inf"))
        e = torch.exp(s - s.amax(dim=-1, keepdim=True)) * visible
        w = self.dropout(e / e.sum(dim=-1, keepdim=True))
        context = (w @ v).permute(0, 2, 1, 3).reshape(b, T, h * hd)
        return self.out_proj(context)
