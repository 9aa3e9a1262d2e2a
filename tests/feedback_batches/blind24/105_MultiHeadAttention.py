import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads:
            raise ValueError("d_out must be divisible by num_heads")
        self.num_heads = num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length, dtype=torch.bool), 1))

    def forward(self, x):
        b, T, d_out = x.shape[0], x.shape[1], self.out_proj.in_features
        hd = d_out // self.num_heads
        q, k, v = self.W_query(x), self.W_key(x), self.W_value(x)
        # every feature's product for every (query, key) pair, summed within each head's group
        products = q.unsqueeze(2) * k.unsqueeze(1)  # (b, T, T, d_out)
        scores = products.view(b, T, T, self.num_heads, hd).sum(-1).permute(0, 3, 1, 2).contiguous()  # (b, h, T, T)
        scores = scores.masked_fill(self.mask[:T, :T], float("-inf")) / hd ** 0.5
        weights = self.dropout(scores.softmax(-1))
        v_heads = v.view(b, T, self.num_heads, hd).transpose(1, 2)  # (b, h, T, hd)
        context = (weights @ v_heads).transpose(1, 2).reshape(b, T, d_out)
        return self.out_proj(context)
