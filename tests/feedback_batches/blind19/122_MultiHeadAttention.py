import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError(f"num_heads={num_heads} does not divide d_out={d_out}")
        self.num_heads = num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.ones(context_length, context_length, dtype=torch.bool).triu(1))

    def forward(self, x):
        b, T, _ = x.shape
        h = self.num_heads
        # every (sequence, head) pair becomes one batch entry of torch.bmm
        q = split_heads(self.W_query(x), h).flatten(0, 1)  # (b * h, T, hd)
        k = split_heads(self.W_key(x), h).flatten(0, 1)
        v = split_heads(self.W_value(x), h).flatten(0, 1)
        scores = torch.bmm(q, k.transpose(1, 2)).masked_fill(self.mask[:T, :T], float("-inf"))
        weights = self.dropout(torch.softmax(scores / k.shape[-1] ** 0.5, dim=-1))
        context = torch.bmm(weights, v).unflatten(0, (b, h))  # (b, h, T, hd)
        return self.out_proj(merge_heads(context))
