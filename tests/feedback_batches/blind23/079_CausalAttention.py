import torch
from torch import nn


class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("hidden", torch.ones(context_length, context_length).triu(1).bool())

    def forward(self, x):
        b, T, _ = x.size()
        q, k, v = self.W_query(x), self.W_key(x), self.W_value(x)
        s = (q @ k.mT) / k.size(-1) ** 0.5
        s = s.masked_fill(self.hidden[:T, :T], float("-inf"))
        # softmax by hand, shifted by the largest visible score of each row
        e = torch.exp(s - s.amax(dim=-1, keepdim=True))
        w = e / e.sum(dim=-1, keepdim=True)
        return self.dropout(w) @ v
