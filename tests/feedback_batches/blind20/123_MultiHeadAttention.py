import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads:
            raise ValueError(f"d_out={d_out} cannot be split into {num_heads} heads")
        self.num_heads, self.head_dim = num_heads, d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("causal", torch.ones(context_length, context_length, dtype=torch.bool).triu(1))

    def forward(self, x):
        b, T, _ = x.shape
        h, hd = self.num_heads, self.head_dim

        def fold(t):  # (b, T, h * hd) -> (b * h, T, hd): every head becomes a batch entry
            return t.view(b, T, h, hd).transpose(1, 2).reshape(b * h, T, hd)

        q, k, v = fold(self.W_query(x)), fold(self.W_key(x)), fold(self.W_value(x))
        scores = torch.bmm(q, k.transpose(1, 2)).masked_fill(self.causal[:T, :T], float("-inf"))
        weights = self.dropout(torch.softmax(scores / hd ** 0.5, dim=-1))  # (b * h, T, T)
        context = torch.bmm(weights, v).view(b, h, T, hd).transpose(1, 2).reshape(b, T, h * hd)
        return self.out_proj(context)
