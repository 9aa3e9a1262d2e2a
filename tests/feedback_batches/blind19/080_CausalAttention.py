import torch
from torch import nn


class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query, self.W_key, self.W_value = (nn.Linear(d_in, d_out, bias=qkv_bias) for _ in "qkv")
        self.dropout = nn.Dropout(p=dropout)
        # an additive mask: 0 where a query may look, -inf above the diagonal
        self.register_buffer("additive_mask", torch.full((context_length, context_length), float("-inf")).triu(1))

    def forward(self, x):
        n = x.size(1)
        q, k, v = self.W_query(x), self.W_key(x), self.W_value(x)
        scores = torch.einsum("bqd,bkd->bqk", q, k) / k.size(-1) ** 0.5 + self.additive_mask[:n, :n]
        weights = self.dropout(scores.softmax(dim=-1))
        return torch.einsum("bqk,bkd->bqd", weights, v)
