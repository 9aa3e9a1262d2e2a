import torch
from torch import nn


class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer(
            "future", torch.ones(context_length, context_length).triu(diagonal=1).bool()
        )

    def forward(self, x):
        T = x.size(1)
        q, k, v = self.W_query(x), self.W_key(x), self.W_value(x)
        scores = (q @ k.mT) / k.size(-1) ** 0.5
        scores = scores.masked_fill(self.future[:T, :T], torch.finfo(scores.dtype).min)
        return self.dropout(scores.softmax(dim=-1)) @ v
